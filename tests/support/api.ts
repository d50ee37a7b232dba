import type { Database } from "@/lib/db";
import { createApiContext, type ApiContext } from "@/lib/api/context";
import { handleApiRequest } from "@/lib/api/handler";
import { changeBalance } from "@/lib/billing/ledger";
import { ensureDefaultPlans, type PlanSlug } from "@/lib/billing/plans";
import { parseDollars } from "@/lib/money";
import { loadSampleData } from "@/lib/data/import";
import { createKey } from "@/lib/keys/manage";
import { createOrganization } from "@/lib/platform/organizations";
import { openTestDatabase } from "./database";

/** A migrated database with plans and a small sample dataset, and an API context on it. */
export async function openApiTestbed(options: { tickerCount?: number } = {}) {
  const db = await openTestDatabase();
  await ensureDefaultPlans(db.prisma);
  await loadSampleData(db.prisma, { tickerCount: options.tickerCount ?? 30 });
  const ctx = createApiContext(db);
  return new Testbed(db, ctx);
}

export class Testbed {
  constructor(readonly db: Database, public ctx: ApiContext) {}

  get prisma() {
    return this.db.prisma;
  }

  /** An organization on a plan with a balance and one key (more with `keys`). */
  async org(options: { plan?: PlanSlug; dollars?: string; keys?: number; endpoints?: string[]; name?: string } = {}) {
    const org = await createOrganization(this.prisma, { name: options.name ?? "Test org", plan: options.plan ?? "retail" }, { actorLabel: "test" });
    if (options.dollars && parseDollars(options.dollars) !== 0n) {
      await changeBalance(this.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: parseDollars(options.dollars) });
    }
    const keys: { key: string; id: string }[] = [];
    for (let i = 0; i < (options.keys ?? 1); i++) {
      const created = await createKey(this.prisma, { orgId: org.id, name: `key ${i + 1}`, endpoints: options.endpoints }, { actorLabel: "test" });
      keys.push({ key: created.key, id: created.record.id });
    }
    return { id: org.id, key: keys[0]!.key, keyId: keys[0]!.id, keys };
  }

  async balance(orgId: string): Promise<bigint> {
    return (await this.prisma.organization.findUniqueOrThrow({ where: { id: orgId } })).balanceNanos;
  }

  request(path: string, init: { key?: string; headers?: Record<string, string>; method?: string; ctx?: ApiContext } = {}) {
    const headers = new Headers(init.headers);
    if (init.key !== undefined) headers.set("API-KEY", init.key);
    return handleApiRequest(new Request(`http://api.test${path}`, { method: init.method ?? "GET", headers }), init.ctx ?? this.ctx);
  }

  async json(path: string, init: Parameters<Testbed["request"]>[1] = {}) {
    const response = await this.request(path, init);
    const text = await response.text();
    return { response, status: response.status, text, body: text ? JSON.parse(text) : null };
  }

  close() {
    return this.db.close();
  }
}
