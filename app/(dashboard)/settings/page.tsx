import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { RenameOrganizationForm } from "@/components/settings/organization-name-forms";
import { CloseOrganization, DeleteAccount } from "@/components/settings/danger-zone";
import { PlanRequest } from "@/components/settings/plan-request";
import { ChangePasswordForm, SessionList } from "@/components/settings/security-settings";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/accounts";
import { can } from "@/lib/platform/access";
import { organizationsOnlyOwnedBy } from "@/lib/platform/accounts";
import { listPlanRequests, planOffers, planPriceText } from "@/lib/platform/plans";
import { securityOverview } from "@/lib/platform/security";
import { formatMoney } from "@/lib/money";
import { Money } from "@/components/ui/money";
import { getOrgPage } from "@/lib/platform/session";
import { formatDateTime } from "@/lib/utils/dates";
import { ROLE_LABELS } from "@/lib/utils/roles";
import { formatCount } from "@/lib/utils/format";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { db, principal, org, role, user, allowed: canRename } = await getOrgPage("org:rename");
  const plan = org.plan;
  const [security, plans, requests, soleOwnerOf] = await Promise.all([
    securityOverview(db, principal),
    planOffers(),
    listPlanRequests(db, principal, org.id),
    organizationsOnlyOwnedBy(db, user.id),
  ]);
  const openRequest = requests.find((r) => r.status === "OPEN") ?? null;
  const answered = requests.filter((r) => r.status === "APPROVED" || r.status === "DECLINED");
  const deleteBlocked = soleOwnerOf.length
    ? `You are the only owner of ${soleOwnerOf.map((o) => o.name).join(", ")}. Make someone else an owner or close it before you delete your account.`
    : null;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Settings" description={`The organization ${org.name}, its plan, and your account.`} />

      <Card>
        <CardHeader>
          <CardTitle as="h2">Organization</CardTitle>
          <CardDescription>
            Your role here: <strong className="font-medium text-zinc-900">{ROLE_LABELS[role]}</strong>.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {canRename ? (
            <div className="max-w-md">
              <RenameOrganizationForm orgId={org.id} name={org.name} />
            </div>
          ) : (
            <div className="flex flex-col gap-3">
              <Facts>
                <Fact label="Name">{org.name}</Fact>
              </Facts>
              <p className="text-sm text-zinc-600">Only owners and admins can rename the organization.</p>
            </div>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Plan</CardTitle>
          <CardDescription>
            {org.name} is on the <strong className="font-medium text-zinc-900">{plan.name}</strong> plan. Platform administrators move organizations between plans; ask below.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          <ul className="grid gap-3 md:grid-cols-3" aria-label="Plans">
            {plans.map((candidate) => (
              <li
                key={candidate.id}
                aria-current={candidate.id === plan.id ? "true" : undefined}
                className={candidate.id === plan.id ? "rounded-lg border-2 border-accent-600 p-4" : "rounded-lg border border-zinc-200 p-4"}
              >
                <div className="flex items-center justify-between gap-2">
                  <h3 className="font-semibold text-zinc-900">{candidate.name}</h3>
                  {candidate.id === plan.id ? <Badge tone="accent">Your plan</Badge> : null}
                </div>
                <dl className="mt-3 flex flex-col gap-2 text-sm">
                  <div>
                    <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Price</dt>
                    <dd data-testid={`plan-price-${candidate.slug}`}>{planPriceText(candidate)}</dd>
                  </div>
                  <div>
                    <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Rate limit</dt>
                    <dd>{formatCount(candidate.requestsPerMinute)} requests per minute</dd>
                  </div>
                  <div>
                    <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Unique tickers</dt>
                    <dd>{candidate.isTrial && candidate.dailyTickerLimit ? `${formatCount(candidate.dailyTickerLimit)} per endpoint per day` : "No limit"}</dd>
                  </div>
                  <div>
                    <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Endpoints</dt>
                    <dd>
                      <ul className="mt-1 flex flex-wrap gap-1.5">
                        {candidate.endpoints.map((endpoint) => (
                          <li key={endpoint.name}>
                            <Badge tone="accent" title={`/v1/${endpoint.name}: ${formatMoney(endpoint.pricePerGbNanos, "price")} per GB`}>
                              {endpoint.title}
                            </Badge>
                          </li>
                        ))}
                      </ul>
                    </dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
          {plan.isTrial && plan.dailyTickerLimit ? (
            <p className="text-sm text-zinc-600">Trial days end at midnight Chicago time, when the unique-ticker count starts again.</p>
          ) : null}
          <section aria-labelledby="plan-request-heading" className="flex flex-col gap-3">
            <h3 id="plan-request-heading" className="text-sm font-semibold text-zinc-900">
              Ask for another plan
            </h3>
            {can(role, "plan:request") ? (
              <PlanRequest
                orgId={org.id}
                plans={plans.filter((p) => p.id !== plan.id).map((p) => ({ slug: p.slug, name: p.name }))}
                open={openRequest ? { id: openRequest.id, planName: openRequest.plan.name, createdAt: formatDateTime(openRequest.createdAt) } : null}
              />
            ) : (
              <p className="text-sm text-zinc-600">Owners and admins can ask for another plan.</p>
            )}
            {answered.length ? (
              <ul className="flex flex-col gap-2 text-sm" aria-label="Answers to plan requests">
                {answered.map((r) => (
                  <li key={r.id} className="rounded-md border border-zinc-200 p-3">
                    <span className="font-medium text-zinc-900">
                      {r.plan.name} plan: {r.status === "APPROVED" ? "approved" : "declined"}
                    </span>
                    {r.answeredAt ? <span className="text-zinc-500"> · {formatDateTime(r.answeredAt)}</span> : null}
                    {r.answer ? <p className="mt-1 text-zinc-700">{r.answer}</p> : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Your account</CardTitle>
        </CardHeader>
        <CardContent>
          <Facts>
            <Fact label="Email">
              <span className="wrap-anywhere">{user.email}</span>
            </Fact>
            <Fact label="Name">{user.name || <span className="text-zinc-500">Not set</span>}</Fact>
          </Facts>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2" id="security">
            Security
          </CardTitle>
          <CardDescription>Your password, and the browsers signed in to your account.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-8">
          <section aria-labelledby="password-heading" className="flex flex-col gap-3">
            <h3 id="password-heading" className="text-sm font-semibold text-zinc-900">
              Password
            </h3>
            {security.hasPassword ? (
              <ChangePasswordForm minLength={PASSWORD_MIN_LENGTH} />
            ) : (
              <p className="text-sm text-zinc-600">You sign in with {security.providers.join(" or ") || "a provider"}; there is no password to change.</p>
            )}
          </section>
          <section aria-labelledby="sessions-heading" className="flex flex-col gap-3">
            <h3 id="sessions-heading" className="text-sm font-semibold text-zinc-900">
              Where you are signed in
            </h3>
            <SessionList
              sessions={security.sessions.map((s) => ({ id: s.id, ip: s.ip, userAgent: s.userAgent, current: s.current, createdAt: formatDateTime(s.createdAt) }))}
            />
          </section>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Another organization</CardTitle>
          <CardDescription>For another team or client: separate keys, balance and members. You can switch between organizations at the top of the page.</CardDescription>
        </CardHeader>
        <CardContent>
          <Link href="/organizations/new" className={buttonClasses({ variant: "secondary" })}>
            Create another organization
          </Link>
        </CardContent>
      </Card>
      <Card className="border-red-200">
        <CardHeader>
          <CardTitle as="h2">Close or delete</CardTitle>
          <CardDescription>Closing keeps the organization’s records; deleting your account erases you, not the organizations you belong to.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          <section aria-labelledby="close-heading" className="flex flex-col gap-2">
            <h3 id="close-heading" className="text-sm font-semibold text-zinc-900">
              Close {org.name}
            </h3>
            {can(role, "org:close") ? (
              <>
                <p className="text-sm text-zinc-600">
                  Its keys stop at once and its members lose access. Its balance,{" "}
                  <Money nanos={org.balanceNanos} use="balance" />, would be forfeited.
                </p>
                <div>
                  <CloseOrganization
                    orgId={org.id}
                    orgName={org.name}
                    creditText={formatMoney(org.balanceNanos > 0n ? org.balanceNanos : 0n, "balance")}
                    hasCredit={org.balanceNanos > 0n}
                  />
                </div>
              </>
            ) : (
              <p className="text-sm text-zinc-600">Only owners can close the organization.</p>
            )}
          </section>
          <section aria-labelledby="delete-heading" className="flex flex-col gap-2">
            <h3 id="delete-heading" className="text-sm font-semibold text-zinc-900">
              Delete your account
            </h3>
            <DeleteAccount email={user.email} blockedReason={deleteBlocked} />
          </section>
        </CardContent>
      </Card>
    </div>
  );
}

function Facts({ children }: { children: ReactNode }) {
  return <dl className="grid gap-4 sm:grid-cols-2">{children}</dl>;
}

function Fact({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm text-zinc-900">{children}</dd>
    </div>
  );
}
