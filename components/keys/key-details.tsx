import { Badge } from "@/components/ui/badge";
import type { KeyRow } from "./types";
import { formatMoney, parseDollars } from "@/lib/money";

/** What a key shows of itself, the same in the wide table and on a phone's card. */

export function KeyHint({ hint }: { hint: string }) {
  return (
    <div className="font-mono text-xs whitespace-nowrap text-zinc-500" title="The first 12 characters of the key">
      {hint}…
    </div>
  );
}

export function daysText(days: number): string {
  return days === 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`;
}

export function KeyStatus({ keyRow }: { keyRow: KeyRow }) {
  if (keyRow.expired) {
    return (
      <div className="flex max-w-56 flex-col items-start gap-1">
        <Badge tone="danger">{keyRow.rolled ? "Replaced" : "Expired"}</Badge>
        <span className="text-xs text-zinc-600">Refused since {keyRow.expiresAt} (401 api_key_expired)</span>
      </div>
    );
  }
  if (keyRow.status === "ACTIVE" && keyRow.rolled) {
    return (
      <div className="flex max-w-56 flex-col items-start gap-1">
        <Badge tone="warning">Rolled: grace period</Badge>
        <span className="text-xs text-zinc-600">Works until {keyRow.expiresAt}</span>
      </div>
    );
  }
  if (keyRow.status === "ACTIVE") {
    return (
      <div className="flex max-w-56 flex-col items-start gap-1">
        <Badge tone={keyRow.daysLeft !== null && keyRow.daysLeft <= 7 ? "warning" : "success"}>Active</Badge>
        {keyRow.daysLeft !== null ? (
          <span className="text-xs text-zinc-600" title={`Refused from ${keyRow.expiresAt}`}>
            Expires {daysText(keyRow.daysLeft)}
          </span>
        ) : null}
        {keyRow.replaces ? <span className="text-xs text-zinc-600">Replaces {keyRow.replaces}…</span> : null}
      </div>
    );
  }
  if (keyRow.platformReason === null) return <Badge tone="warning">Disabled</Badge>;
  return (
    <div className="flex max-w-56 flex-col items-start gap-1">
      <Badge tone="danger">Disabled by the platform</Badge>
      <span className="text-xs text-zinc-600">{keyRow.platformReason}</span>
    </div>
  );
}

/** Why a key can call nothing: the customer's choice and the platform's restriction do not meet, or the plan has none of the choice. */
function noEndpointText(keyRow: KeyRow): string {
  const chosen = keyRow.allowedEndpoints.join(", ");
  if (keyRow.platformLimit && chosen) return `No endpoint: your choice (${chosen}) is outside what the platform allows (${keyRow.platformLimit.endpoints.join(", ")}). Change it in Settings.`;
  return chosen ? `No endpoint: your plan has none of ${chosen}` : "No endpoint";
}

export function KeyAccess({ keyRow }: { keyRow: KeyRow }) {
  const endpoints = keyRow.callable;
  return (
    <div className="flex flex-col gap-1">
      {endpoints === null ? (
        <span className="text-sm text-zinc-600">All plan endpoints</span>
      ) : endpoints.length === 0 ? (
        <span className="text-sm text-zinc-600">{noEndpointText(keyRow)}</span>
      ) : (
        <ul className="flex flex-wrap gap-1" aria-label="Allowed endpoints">
          {endpoints.map((name) => (
            <li key={name}>
              <Badge tone="accent">{name}</Badge>
            </li>
          ))}
        </ul>
      )}
      {keyRow.platformLimit ? <PlatformLimit limit={keyRow.platformLimit} /> : null}
      <span className="text-xs break-words text-zinc-600" title={keyRow.allowedIps.join(", ") || undefined}>
        {keyRow.allowedIps.length === 0
          ? "From any address"
          : `From ${keyRow.allowedIps.length <= 2 ? keyRow.allowedIps.join(", ") : `${keyRow.allowedIps.length} addresses or ranges`}`}
      </span>
    </div>
  );
}

export function KeySpend({ keyRow, inline = false }: { keyRow: KeyRow; inline?: boolean }) {
  const cap = (text: string) => formatMoney(parseDollars(text), "typed");
  const today = `${keyRow.spentToday} today${keyRow.dailyCap ? ` of ${cap(keyRow.dailyCap)}` : ""}`;
  const month = `${keyRow.spentThisMonth} this month${keyRow.monthlyCap ? ` of ${cap(keyRow.monthlyCap)}` : ""}`;
  if (inline) return <>{`${today} · ${month}`}</>;
  return (
    <div className="flex flex-col text-xs">
      <span>{today}</span>
      <span>{month}</span>
    </div>
  );
}

function PlatformLimit({ limit }: { limit: { endpoints: string[]; reason: string } }) {
  return (
    <div className="flex max-w-64 flex-col items-start gap-1">
      <Badge tone="danger">Restricted by the platform</Badge>
      <span className="text-xs break-words text-zinc-600">
        To {limit.endpoints.join(", ")}: {limit.reason}
      </span>
    </div>
  );
}
