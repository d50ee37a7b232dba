import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/field";
import type { EndpointOption, KeyRow } from "./types";

/** The endpoints a key may call, as the create and settings dialogs ask for them. */
export function EndpointChoices({
  endpoints,
  selected,
  onChange,
  platformLimit = null,
}: {
  endpoints: EndpointOption[];
  selected: string[];
  onChange: (next: string[]) => void;
  platformLimit?: KeyRow["platformLimit"];
}) {
  const blocked = (name: string) => platformLimit !== null && !platformLimit.endpoints.includes(name);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-zinc-800">Endpoints this key may call</legend>
      {platformLimit ? (
        <Alert tone="warning" title="Restricted by the platform">
          A platform administrator limited this key to {platformLimit.endpoints.join(", ")}: {platformLimit.reason}. You can narrow it further, not
          widen it; contact support to have the restriction lifted.
        </Alert>
      ) : null}
      <p className="mb-1 text-xs text-zinc-500">
        {platformLimit ? "Leave all unticked to allow every endpoint the platform allows." : "Leave all unticked to allow every endpoint of your plan."}
      </p>
      {endpoints.map((endpoint) => (
        <Checkbox
          key={endpoint.name}
          name="endpoints"
          value={endpoint.name}
          checked={!blocked(endpoint.name) && selected.includes(endpoint.name)}
          disabled={blocked(endpoint.name)}
          onChange={(event) => onChange(event.target.checked ? [...selected, endpoint.name] : selected.filter((n) => n !== endpoint.name))}
          label={endpoint.title}
          description={blocked(endpoint.name) ? `/v1/${endpoint.name} · blocked by the platform` : `/v1/${endpoint.name}`}
        />
      ))}
    </fieldset>
  );
}

/** A key dialog's Cancel and submit buttons. */
export function FormButtons({ busy, onCancel, submitLabel }: { busy: boolean; onCancel: () => void; submitLabel: string }) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" loading={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
