import { Badge } from "@/components/ui/badge";

/** A key's state as an operator needs it: who disabled it, and why when it was the platform. */
export function AdminKeyStatus({ apiKey }: { apiKey: { deletedAt: Date | null; status: "ACTIVE" | "DISABLED"; disabledByPlatform: boolean; disabledReason: string | null } }) {
  if (apiKey.deletedAt) return <Badge>Deleted</Badge>;
  if (apiKey.status === "ACTIVE") return <Badge tone="success">Active</Badge>;
  if (!apiKey.disabledByPlatform) return <Badge tone="warning">Disabled by the customer</Badge>;
  return (
    <span className="flex flex-col items-start gap-1">
      <Badge tone="danger">Disabled by the platform</Badge>
      {apiKey.disabledReason ? <span className="text-xs text-zinc-600">{apiKey.disabledReason}</span> : null}
    </span>
  );
}

/** What a key may call: the customer's own choice, and the platform's restriction (an upper bound the customer cannot widen) with its reason. */
export function AdminKeyEndpoints({ apiKey }: { apiKey: { allowedEndpoints: string[]; platformEndpoints: string[]; platformEndpointsReason: string | null } }) {
  return (
    <span className="flex flex-col items-start gap-1 text-xs text-zinc-600">
      <span>Customer: {apiKey.allowedEndpoints.length ? apiKey.allowedEndpoints.join(", ") : "all plan endpoints"}</span>
      {apiKey.platformEndpoints.length ? (
        <span>
          <Badge tone="danger">Platform: {apiKey.platformEndpoints.join(", ")}</Badge>
          {apiKey.platformEndpointsReason ? <span className="block">{apiKey.platformEndpointsReason}</span> : null}
        </span>
      ) : null}
    </span>
  );
}
