import type { DbClient } from "@/lib/db";
import { isEndpointName, type EndpointName } from "@/lib/api/catalog";
import { DomainError } from "@/lib/orgs";
import { generateApiKey, KEY_HINT_LENGTH } from "./index";

/** Key lifecycle shared by the dashboard, the admin console and the CLI. */

export function parseEndpointList(value: readonly string[]): EndpointName[] {
  const unknown = value.filter((name) => !isEndpointName(name));
  if (unknown.length) throw new DomainError("unknown_endpoint", `Unknown endpoint(s): ${unknown.join(", ")}.`);
  return [...new Set(value as EndpointName[])];
}

export async function createKey(
  db: DbClient,
  input: { orgId: string; name: string; endpoints?: readonly string[]; createdById?: string | null },
) {
  const endpoints = parseEndpointList(input.endpoints ?? []);
  const org = await db.organization.findUnique({ where: { id: input.orgId }, include: { plan: true } });
  if (!org) throw new DomainError("unknown_organization", `No organization with id ${input.orgId}.`);
  const outsidePlan = endpoints.filter((e) => !org.plan.allowedEndpoints.includes(e));
  if (outsidePlan.length) {
    throw new DomainError("endpoint_not_in_plan", `The ${org.plan.name} plan does not include: ${outsidePlan.join(", ")}.`);
  }
  const generated = generateApiKey();
  const record = await db.apiKey.create({
    data: {
      orgId: input.orgId,
      name: input.name,
      keyHash: generated.hash,
      hint: generated.hint,
      allowedEndpoints: endpoints,
      createdById: input.createdById ?? null,
    },
  });
  return { key: generated.key, record };
}

/** Finds a live key of any organization by id or by its 12-character hint. */
export async function findKeyByIdOrHint(db: DbClient, idOrHint: string) {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrHint);
  const matches = await db.apiKey.findMany({
    where: { deletedAt: null, ...(isUuid ? { id: idOrHint } : { hint: idOrHint.slice(0, KEY_HINT_LENGTH) }) },
  });
  if (matches.length === 0) throw new DomainError("unknown_key", `No key matches "${idOrHint}".`);
  if (matches.length > 1) {
    throw new DomainError("ambiguous_key", `${matches.length} keys share the hint "${idOrHint}"; use the key id.`);
  }
  return matches[0]!;
}

export async function setKeyStatus(db: DbClient, keyId: string, status: "ACTIVE" | "DISABLED") {
  return db.apiKey.update({
    where: { id: keyId, deletedAt: null },
    data: { status, disabledAt: status === "DISABLED" ? new Date() : null },
  });
}

export async function deleteKey(db: DbClient, keyId: string) {
  return db.apiKey.update({ where: { id: keyId, deletedAt: null }, data: { deletedAt: new Date() } });
}

export async function setKeyRestrictions(db: DbClient, keyId: string, endpoints: readonly string[]) {
  return db.apiKey.update({
    where: { id: keyId, deletedAt: null },
    data: { allowedEndpoints: parseEndpointList(endpoints) },
  });
}
