import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";

export interface AuditFilterValues {
  org: string;
  actor: string;
  action: string;
  from: string;
  to: string;
}

const GROUP_LABELS: Record<string, string> = {
  key: "Keys",
  member: "Members",
  org: "Organizations",
  user: "Users",
  billing: "Billing",
  credits: "Credits",
  plan: "Plans",
  price: "Prices",
  data: "Data",
};

/** The audit log's filters: a plain GET form, so every filtered view is a link that can be shared. */
export function AuditFilters({ values, groups }: { values: AuditFilterValues; groups: { prefix: string; actions: string[] }[] }) {
  const active = Object.values(values).some(Boolean);
  return (
    <form method="get" action="/admin/audit" role="search" aria-label="Filter the audit log" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto_auto_auto] lg:items-end">
      <Field label="Organization" hint="Its id, or part of its name.">
        {(control) => <Input {...control} name="org" type="search" defaultValue={values.org} autoComplete="off" />}
      </Field>
      <Field label="Actor" hint="An email (or part) or a label.">
        {(control) => <Input {...control} name="actor" type="search" defaultValue={values.actor} autoComplete="off" placeholder="ann@…, cli, stripe, system" />}
      </Field>
      <Field label="Action" hint="One action, or a whole group.">
        {(control) => (
          <Select {...control} name="action" defaultValue={values.action}>
            <option value="">Every action</option>
            {groups.map((group) => (
              <optgroup key={group.prefix} label={GROUP_LABELS[group.prefix] ?? group.prefix}>
                <option value={`${group.prefix}.*`}>All {(GROUP_LABELS[group.prefix] ?? group.prefix).toLowerCase()} actions</option>
                {group.actions.map((action) => (
                  <option key={action} value={action}>
                    {action}
                  </option>
                ))}
              </optgroup>
            ))}
          </Select>
        )}
      </Field>
      <Field label="From (UTC day)" hint="Included.">
        {(control) => <Input {...control} name="from" type="date" defaultValue={values.from} />}
      </Field>
      <Field label="To (UTC day)" hint="Included.">
        {(control) => <Input {...control} name="to" type="date" defaultValue={values.to} />}
      </Field>
      {/* The hints above the fields' bottoms keep this row's buttons level with the inputs on wide screens. */}
      <div className="flex gap-2 lg:pb-5">
        <button type="submit" className={buttonClasses()}>
          Filter
        </button>
        {active ? (
          <Link href="/admin/audit" className={buttonClasses({ variant: "ghost" })}>
            Clear
          </Link>
        ) : null}
      </div>
    </form>
  );
}
