"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { readTypedDollars } from "@/lib/money";
import { schedulePriceAction } from "@/lib/platform/actions/admin-plans";

export interface PriceHistoryView {
  id: string;
  price: string;
  effectiveAt: string;
  createdAt: string;
  createdBy: string | null;
  state: "scheduled" | "in_force" | "past";
}

export interface EndpointPriceView {
  name: string;
  title: string;
  /** Dollars per GB, exact ("$8.00", "$12.345678901"). */
  defaultPrice: string;
  currentPrice: string;
  /** When the price in force took effect; null while the catalog default applies. */
  currentSince: string | null;
  next: { price: string; effectiveAt: string } | null;
  history: PriceHistoryView[];
}

const STATES: Record<PriceHistoryView["state"], { label: string; tone: "accent" | "success" | "neutral" }> = {
  scheduled: { label: "Scheduled", tone: "accent" },
  in_force: { label: "In force", tone: "success" },
  past: { label: "Replaced", tone: "neutral" },
};

/** The price per GB of every catalog endpoint: in force now, the default, what is scheduled, and the full history; and scheduling a change. */
export function PricesManager({ prices }: { prices: EndpointPriceView[] }) {
  const router = useRouter();
  const [scheduling, setScheduling] = useState<EndpointPriceView | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  return (
    <div className="flex flex-col gap-3">
      <div className="px-5 pt-5">
        <h2 className="text-base font-semibold text-zinc-900">Prices per GB</h2>
        <p className="text-sm text-zinc-600">
          A request is charged at the price in force when it arrives. A change applies from its moment on and stays in the history; past charges are never re-priced.
        </p>
      </div>
      <div aria-live="polite" className="px-5">
        {message ? <Alert tone="success">{message}</Alert> : null}
      </div>
      <Table caption="Prices per GB" stacked>
        <THead>
          <TR>
            <TH>Endpoint</TH>
            <TH className="text-right">Now</TH>
            <TH className="text-right">Default</TH>
            <TH>Next change</TH>
            <TH>
              <span className="sr-only">Actions</span>
            </TH>
          </TR>
        </THead>
        <TBody>
          {prices.map((endpoint) => (
            <TR key={endpoint.name} data-endpoint={endpoint.name}>
              <TD data-label="Endpoint">
                <div className="font-medium text-zinc-900">{endpoint.title}</div>
                <div className="font-mono text-xs text-zinc-500">{endpoint.name}</div>
              </TD>
              <TD data-label="Now" className="text-right">
                <div className="font-medium tabular-nums text-zinc-900" data-testid={`price-now-${endpoint.name}`}>
                  {endpoint.currentPrice}
                </div>
                <div className="text-xs text-zinc-500">{endpoint.currentSince ? `since ${endpoint.currentSince}` : "the default"}</div>
              </TD>
              <TD data-label="Default" className="text-right tabular-nums text-zinc-600">
                {endpoint.defaultPrice}
              </TD>
              <TD data-label="Next change">
                {endpoint.next ? (
                  <div>
                    <span className="font-medium tabular-nums">{endpoint.next.price}</span>
                    <span className="block text-xs text-zinc-600">from {endpoint.next.effectiveAt}</span>
                  </div>
                ) : (
                  <span className="text-zinc-600">None scheduled</span>
                )}
              </TD>
              <TD data-label="Actions">
                <div className="flex justify-end">
                  <Button variant="secondary" size="sm" onClick={() => setScheduling(endpoint)} aria-label={`Change the price of ${endpoint.title}`}>
                    Change price
                  </Button>
                </div>
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>

      <section aria-labelledby="price-history" className="flex flex-col gap-2 border-t border-zinc-100 px-5 py-4">
        <h3 id="price-history" className="text-sm font-semibold text-zinc-900">
          History
        </h3>
        <ul className="flex flex-col divide-y divide-zinc-100">
          {prices.map((endpoint) => (
            <li key={endpoint.name} className="py-2">
              <details className="group" data-history={endpoint.name}>
                <summary className="cursor-pointer text-sm text-zinc-800 marker:text-zinc-400">
                  {endpoint.title}{" "}
                  <span className="text-zinc-500">
                    — {endpoint.history.length === 0 ? "never changed" : `${endpoint.history.length} change${endpoint.history.length === 1 ? "" : "s"}`}
                  </span>
                </summary>
                <div className="mt-2">
                  {endpoint.history.length === 0 ? (
                    <p className="text-sm text-zinc-600">The catalog default ({endpoint.defaultPrice} per GB) has always applied.</p>
                  ) : (
                    <div className="rounded-md border border-zinc-200">
                      <Table caption={`Price history of ${endpoint.title}`} stacked>
                        <THead>
                          <TR>
                            <TH>From (UTC)</TH>
                            <TH className="text-right">Price per GB</TH>
                            <TH>Status</TH>
                            <TH>Set by</TH>
                          </TR>
                        </THead>
                        <TBody>
                          {endpoint.history.map((row) => (
                            <TR key={row.id}>
                              <TD data-label="From (UTC)" className="whitespace-nowrap">
                                {row.effectiveAt}
                              </TD>
                              <TD data-label="Price per GB" className="text-right tabular-nums">
                                {row.price}
                              </TD>
                              <TD data-label="Status">
                                <Badge tone={STATES[row.state].tone}>{STATES[row.state].label}</Badge>
                              </TD>
                              <TD data-label="Set by" className="text-zinc-600">
                                <span className="wrap-anywhere">{row.createdBy ?? "Before the console (migrated)"}</span>
                                <span className="block text-xs text-zinc-500">on {row.createdAt}</span>
                              </TD>
                            </TR>
                          ))}
                        </TBody>
                      </Table>
                    </div>
                  )}
                </div>
              </details>
            </li>
          ))}
        </ul>
      </section>

      <ScheduleDialog
        key={scheduling?.name ?? "closed"}
        endpoint={scheduling}
        onClose={() => setScheduling(null)}
        onScheduled={(text) => {
          setScheduling(null);
          setMessage(text);
          router.refresh();
        }}
      />
    </div>
  );
}

interface Draft {
  price: string;
  effectiveAt: string;
}

/** Two steps: the price and the moment, then a summary to confirm (a change cannot be taken back, only followed by another). */
function ScheduleDialog({ endpoint, onClose, onScheduled }: { endpoint: EndpointPriceView | null; onClose: () => void; onScheduled: (message: string) => void }) {
  const [when, setWhen] = useState<"now" | "later">("now");
  const [values, setValues] = useState<Draft>({ price: "", effectiveAt: "" });
  const [draft, setDraft] = useState<Draft | null>(null);
  const step = useRef<HTMLDivElement>(null);
  // The dialog moves focus only when it opens: between its steps, focus the first control of the step shown.
  useEffect(() => {
    step.current?.querySelector<HTMLElement>("[data-step-focus]")?.focus();
  }, [draft]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const price = String(form.get("price") ?? "").trim().replace(/^\$\s*/, "");
    const effectiveAt = when === "later" ? String(form.get("effectiveAt") ?? "") : "";
    setValues({ price, effectiveAt });
    const problems: Record<string, string> = {};
    // The shape only (the bounds are the server's, with its own words): the parser every typed amount goes through.
    if (!readTypedDollars(price, { min: 0n }).ok) problems.price = "Enter a price in dollars per GB, like 8 or 12.50 (at most 9 decimals).";
    if (when === "later" && !effectiveAt) problems.effectiveAt = "Choose the moment, in UTC.";
    setErrors(problems);
    setFormError(null);
    if (Object.keys(problems).length === 0) setDraft({ price, effectiveAt });
  }

  function schedule(chosen: Draft) {
    if (!endpoint) return;
    startTransition(async () => {
      const result = await schedulePriceAction({ endpoint: endpoint.name, price: chosen.price, effectiveAt: chosen.effectiveAt });
      startTransition(() => {
        if (result.ok) {
          const at = result.data.effectiveAt.replace("T", " ").replace(/:\d{2}\.\d{3}Z$/, " UTC");
          onScheduled(`${endpoint.title}: ${result.data.after} per GB (was ${result.data.before}) from ${at}.`);
        } else {
          setDraft(null);
          setErrors(result.fieldErrors ?? {});
          setFormError(result.fieldErrors ? null : result.error);
        }
      });
    });
  }

  return (
    <Dialog
      open={endpoint !== null}
      onClose={onClose}
      title={endpoint ? `Change the price of ${endpoint.title}` : "Change a price"}
      description={endpoint ? `Now ${endpoint.currentPrice} per GB; the catalog default is ${endpoint.defaultPrice}.` : undefined}
    >
      <div ref={step}>
      {draft && endpoint ? (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-zinc-800" data-testid="price-summary">
            Requests to <strong className="font-medium">{endpoint.title}</strong> received {draft.effectiveAt ? <>from <strong className="font-medium">{draft.effectiveAt.replace("T", " ")} UTC</strong></> : <strong className="font-medium">from now</strong>} on
            will cost <strong className="font-medium">${draft.price}</strong> per GB.
          </p>
          <p className="text-sm text-zinc-600">The change is kept in the history for good; to undo it, schedule another one later.</p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setDraft(null)} disabled={busy}>
              Back
            </Button>
            <Button onClick={() => schedule(draft)} loading={busy} data-step-focus>
              Schedule price
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={review} className="flex flex-col gap-4" noValidate>
          {formError ? <Alert tone="danger">{formError}</Alert> : null}
          <Field label="Price per GB (US dollars)" hint="Up to 9 decimals, e.g. 12.50 or 0.000115." error={errors.price}>
            {(control) => (
              <div className="relative">
                <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-zinc-500">
                  $
                </span>
                <Input {...control} name="price" inputMode="decimal" autoComplete="off" required defaultValue={values.price} className="pl-7 tabular-nums" data-autofocus data-step-focus />
              </div>
            )}
          </Field>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-zinc-800">Takes effect</legend>
            <label className="flex items-center gap-2 text-sm text-zinc-800">
              <input type="radio" name="when" value="now" checked={when === "now"} onChange={() => setWhen("now")} className="size-4 accent-accent-600" />
              Now
            </label>
            <label className="flex items-center gap-2 text-sm text-zinc-800">
              <input type="radio" name="when" value="later" checked={when === "later"} onChange={() => setWhen("later")} className="size-4 accent-accent-600" />
              At a later moment
            </label>
          </fieldset>
          {when === "later" ? (
            <Field label="Date and time (UTC)" hint="Read as UTC, whatever your computer’s time zone. A moment that has passed is refused." error={errors.effectiveAt}>
              {(control) => <Input {...control} name="effectiveAt" type="datetime-local" step={60} required defaultValue={values.effectiveAt} />}
            </Field>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Review</Button>
          </div>
        </form>
      )}
      </div>
    </Dialog>
  );
}
