import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINT_LIST, type EndpointDefinition } from "@/lib/catalog";
import { importDataset } from "@/lib/data/import";
import { formatMoney, parseDollars } from "@/lib/money";
import {
  AGENT_ROLES,
  INSTRUMENT_TYPES,
  MAX_HOLDERS,
  MAX_STATUS_UPDATES,
  OFFERING_STATUSES,
  OFFERING_TYPES,
  QUOTED_FIELDS,
  RISK_LEVELS,
  SERVED_TEXT_BYTES,
  type Dataset,
} from "@/lib/data/import/schema";
import { API_RECORD_FIELDS } from "@/lib/data/records/schemas";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import { clampText } from "@/lib/data/units";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { createApiContext } from "./context";
import { MAX_ESTIMATE_FACTOR } from "./public";

/**
 * /estimate reveals no value of the records it prices: it depends on the
 * request and the record counts only, and the bill is never above it.
 */

let t: Testbed;
let key: string;
beforeAll(async () => {
  t = await openApiTestbed();
  await t.prisma.plan.updateMany({ data: { requestsPerMinute: 1_000_000 } });
  t.ctx = createApiContext(t.prisma, { estimateLimitPerMinute: 1_000_000 });
  key = (await t.org({ dollars: "100" })).key;
}, 120_000);
afterAll(() => t?.close());

type Estimate = { records_returned: number; estimated_bytes: number; estimated_cost_dollars: string };
const estimateOf = async (endpoint: EndpointDefinition, query: string): Promise<Estimate> => {
  const { status, body } = await t.json(`/estimate?endpoint=${endpoint.name}&${query}`);
  expect(status, query).toBe(200);
  return body;
};

/** The request's bill, checked against its estimate: never above it. */
async function expectBilledWithin(endpoint: EndpointDefinition, query: string, estimate: Estimate) {
  const response = await t.request(`${endpoint.path}?${query}`, { key });
  expect(response.status, `${endpoint.name} ${query}`).toBe(200);
  const body = (await response.json()) as { count: number };
  expect(body.count, `${endpoint.name} ${query}`).toBe(estimate.records_returned);
  const billed = Number(response.headers.get("X-Billable-Bytes"));
  expect(billed, `${endpoint.name} ${query}`).toBeLessThanOrEqual(estimate.estimated_bytes);
  expect(parseDollars(response.headers.get("X-Cost-Dollars")!), `${endpoint.name} ${query}`).toBeLessThanOrEqual(parseDollars(estimate.estimated_cost_dollars));
  return billed;
}

/** Each endpoint's queries: the whole record, with its evidence, and the last field alone. */
const variants = (endpoint: EndpointDefinition) => ["", "&include=source", `&fields=${API_RECORD_FIELDS[endpoint.name].at(-1)}`];

describe("the estimate on the sample data", () => {
  it("is the same for every ticker of one length and one record count: a rating is not told by its size", async () => {
    const tickers = (await t.prisma.company.findMany({ select: { ticker: true } })).map((c) => c.ticker);
    for (const endpoint of ENDPOINT_LIST) {
      for (const variant of [...variants(endpoint), "&fields=overall_offering_risk"]) {
        if (variant.includes("overall_offering_risk") && endpoint.name !== "dilution-rating") continue;
        const seen = new Map<string, number>();
        for (const ticker of tickers) {
          const estimate = await estimateOf(endpoint, `ticker=${ticker}${variant}`);
          const group = `${ticker.length}|${estimate.records_returned}`;
          expect(estimate.estimated_bytes, `${endpoint.name}${variant} ${ticker}`).toBe(seen.get(group) ?? estimate.estimated_bytes);
          seen.set(group, estimate.estimated_bytes);
        }
      }
    }
    // The probe of the issue: a High and a Low rating, same ticker length, one field.
    const high = await estimateOf(ENDPOINT_LIST.find((e) => e.name === "dilution-rating")!, `ticker=${SAMPLE_SHOWCASE.highRisk}&fields=overall_offering_risk`);
    const low = await estimateOf(ENDPOINT_LIST.find((e) => e.name === "dilution-rating")!, `ticker=${SAMPLE_SHOWCASE.lowRisk}&fields=overall_offering_risk`);
    expect(high).toEqual(low);
  }, 120_000);

  it(`is never below the bill and at most ${MAX_ESTIMATE_FACTOR} times it, for every ticker and endpoint`, async () => {
    const tickers = (await t.prisma.company.findMany({ select: { ticker: true } })).map((c) => c.ticker);
    let worst = 0;
    for (const endpoint of ENDPOINT_LIST) {
      for (const variant of [...variants(endpoint), `&limit=${endpoint.maxLimit}`]) {
        for (const ticker of tickers) {
          const query = `ticker=${ticker}${variant}`;
          const estimate = await estimateOf(endpoint, query);
          const billed = await expectBilledWithin(endpoint, query, estimate);
          if (billed === 0) continue;
          worst = Math.max(worst, estimate.estimated_bytes / billed);
        }
      }
    }
    expect(worst).toBeGreaterThan(1);
    expect(worst).toBeLessThanOrEqual(MAX_ESTIMATE_FACTOR);
  }, 120_000);

  it("is what a refusal for want of credits quotes, not the exact cost", async () => {
    const empty = await t.org({ dollars: "0" });
    const query = `ticker=${SAMPLE_SHOWCASE.highRisk}&fields=overall_offering_risk`;
    const estimate = await estimateOf(ENDPOINT_LIST.find((e) => e.name === "dilution-rating")!, query);
    const refused = await t.json(`/v1/dilution-rating?${query}`, { key: empty.key });
    expect(refused.status).toBe(402);
    expect(refused.body.error.details.estimated_cost_dollars).toBe(estimate.estimated_cost_dollars);
    // The words show it by the money rule; the details carry the exact figure.
    expect(refused.body.error.message).toContain(`costs up to ${formatMoney(parseDollars(estimate.estimated_cost_dollars))}`);
  });
});

// ───────────────────────────── changed values, same counts ─────────────────────────────

const INT64_MAX = 2n ** 63n - 1n;
const TWO = [0, 1] as const;

/** Text of at most `maxBytes` as JSON, often at the limit and full of escapes and multi-byte characters. */
function servedText(maxBytes: number, { spaces = true } = {}) {
  const char = fc.oneof(
    fc.constantFrom("a", "Z", "7", "-", '"', "\\", "\u0001", "\u001f", "é", "€", "😀", "\u2028"),
    ...(spaces ? [fc.constant(" ")] : []),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }).filter((c) => c !== "\u0000" && (spaces || c.trim() === c)),
  );
  return fc
    .oneof(fc.string({ unit: char, minLength: 1, maxLength: maxBytes }), fc.string({ unit: char, minLength: maxBytes, maxLength: maxBytes }))
    .map((text) => clampText(text.trim() || "x", maxBytes));
}

const whole = (max = INT64_MAX) => fc.oneof(fc.constant(max), fc.constant(0n), fc.bigInt({ min: 0n, max })).map(String);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
const day = fc.integer({ min: 0, max: 365 * 40 }).map((n) => new Date(Date.UTC(1995, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
const evidence = maybe(
  fc.record({
    source_accession: fc.integer({ min: 0, max: 999_999 }).map((n) => `00011931${String(n % 100).padStart(2, "0")}-24-${String(n).padStart(6, "0")}`),
    source_form: servedText(SERVED_TEXT_BYTES.formType),
    source_filed_at: day,
    source_url: servedText(SERVED_TEXT_BYTES.url - "https://".length, { spaces: false }).map((rest) => `https://${rest}`),
  }),
).map((e) => e ?? {});
const laterDay = (from: string) => fc.integer({ min: 0, max: 2000 }).map((n) => new Date(Date.parse(from) + n * 86_400_000).toISOString().slice(0, 10));
const ordered = fc.tuple(whole(), whole()).map(([a, b]): [string, string] => (BigInt(a) <= BigInt(b) ? [a, b] : [b, a]));
/** Some of a record's quotes, each as long as a quote may be. */
const quotesOf = (fields: readonly string[]) =>
  maybe(fc.record(Object.fromEntries(fields.map((field) => [field, servedText(SERVED_TEXT_BYTES.quote)])), { requiredKeys: [] }));
const bps = maybe(fc.integer({ min: 0, max: 10_000 }));

/** One company's records, two of each kind (one financial report), every value drawn at random; the counts never change. */
function companyRecords(ticker: string, run: number): fc.Arbitrary<Partial<Dataset>> {
  const accession = (kind: string, i: number) => `${ticker}-${kind}${i}-${run}`;
  const registration = (i: number) =>
    fc
      .record({
        form_type: servedText(SERVED_TEXT_BYTES.formType),
        file_number: servedText(SERVED_TEXT_BYTES.fileNumber),
        filed_at: day,
        amounts: ordered,
        is_atm: fc.boolean(),
        over_baby_shelf: maybe(fc.boolean()),
        public_float_cents: maybe(whole()),
        effective: fc.boolean(),
        is_resale: fc.boolean(),
        is_shelf: maybe(fc.boolean()),
        atm_agent: maybe(servedText(SERVED_TEXT_BYTES.underwriter)),
        atm_commission_bps: bps,
        deregistered: fc.boolean(),
        quotes: quotesOf(QUOTED_FIELDS.registrations),
        evidence,
      })
      .chain((r) => fc.record({ r: fc.constant(r), effective_at: laterDay(r.filed_at), expires_at: maybe(laterDay(r.filed_at)) }))
      .map(({ r, effective_at, expires_at }) => ({
        ticker,
        accession_number: accession("R", i),
        form_type: r.form_type,
        file_number: r.file_number,
        filed_at: r.filed_at,
        effective_at: r.effective ? effective_at : null,
        expires_at,
        offering_amount_cents: r.amounts[1],
        is_atm: r.is_atm,
        atm_remaining_cents: r.is_atm ? r.amounts[0] : null,
        over_baby_shelf: r.over_baby_shelf,
        public_float_cents: r.public_float_cents,
        is_effective: r.effective,
        is_resale: r.is_resale,
        is_shelf: r.is_shelf,
        atm_agent: r.is_atm ? r.atm_agent : null,
        atm_commission_bps: r.is_atm ? r.atm_commission_bps : null,
        deregistered_at: r.deregistered ? expires_at : null,
        quotes: r.quotes,
        ...r.evidence,
      }));
  const offering = (i: number) =>
    fc
      .record({
        offering_date: day,
        offering_type: fc.constantFrom(...OFFERING_TYPES),
        form_type: maybe(servedText(SERVED_TEXT_BYTES.formType)),
        shares: maybe(whole()),
        price_micros: maybe(whole()),
        amount_cents: maybe(whole()),
        warrants_issued: maybe(whole()),
        warrant_price_micros: maybe(whole()),
        underwriter: maybe(servedText(SERVED_TEXT_BYTES.underwriter)),
        status: fc.constantFrom(...OFFERING_STATUSES),
        agent_role: maybe(fc.constantFrom(...AGENT_ROLES)),
        prefunded_warrants: maybe(whole()),
        prefunded_price_micros: maybe(whole()),
        net_proceeds_cents: maybe(whole()),
        fee_bps: bps,
        overallotment_shares: maybe(whole()),
        anticipated_amount_cents: maybe(whole()),
        revised_amount_cents: maybe(whole()),
        quotes: quotesOf(QUOTED_FIELDS.offerings),
        evidence,
      })
      .chain((o) => fc.record({ o: fc.constant(o), withdrawn_at: laterDay(o.offering_date) }))
      .map(({ o: { evidence: e, ...o }, withdrawn_at }) => ({
        ticker,
        accession_number: accession("O", i),
        ...o,
        withdrawn_at: o.status === "withdrawn" ? withdrawn_at : null,
        ...e,
      }));
  const instrument = (i: number) =>
    fc
      .record({
        instrument_type: fc.constantFrom(...INSTRUMENT_TYPES),
        name: servedText(SERVED_TEXT_BYTES.instrumentName - 2),
        issued_at: day,
        shares_underlying: whole(),
        exercise_price_micros: maybe(whole()),
        amounts: ordered,
        registered: maybe(fc.boolean()),
        pre_funded: fc.boolean(),
        exercisable_at: maybe(day),
        // distinct names (one holder at most once), as many as a record may carry, each as long as a name may be
        holders: maybe(fc.uniqueArray(servedText(SERVED_TEXT_BYTES.partyName), { minLength: 1, maxLength: MAX_HOLDERS, selector: (name) => name.toLowerCase() })),
        placement_agent: maybe(servedText(SERVED_TEXT_BYTES.partyName)),
        quotes: quotesOf(QUOTED_FIELDS.dilution_instruments),
        evidence,
      })
      .chain((r) => fc.record({ r: fc.constant(r), expires_at: maybe(laterDay(r.issued_at)) }))
      .map(({ r: { amounts, evidence: e, name, ...r }, expires_at }) => ({
        ticker,
        ...r,
        // Distinct names keep the two instruments two records.
        name: `${i} ${name}`,
        expires_at,
        principal_cents: amounts[1],
        remaining_cents: amounts[0],
        ...e,
      }));
  const deficiency = (i: number) =>
    fc
      .record({
        deficiency: servedText(SERVED_TEXT_BYTES.deficiency - 2),
        resolved: fc.boolean(),
        risk: fc.constantFrom(...RISK_LEVELS),
        notice_date: day,
        status_updates: fc.array(fc.record({ date: day, text: servedText(SERVED_TEXT_BYTES.statusUpdateText) }), { maxLength: MAX_STATUS_UPDATES }),
        evidence,
      })
      .chain((r) => fc.record({ r: fc.constant(r), deadline: maybe(laterDay(r.notice_date)), resolved_at: maybe(laterDay(r.notice_date)) }))
      .map(({ r: { resolved, evidence: e, deficiency: kind, ...r }, deadline, resolved_at }) => ({
        ticker,
        ...r,
        deficiency: `${i} ${kind}`,
        status: resolved ? ("resolved" as const) : ("active" as const),
        deadline,
        resolved_at: resolved ? resolved_at : null,
        ...e,
      }));
  const float = (i: number) =>
    fc
      .record({ shares: ordered, price_micros: maybe(whole()), market_cap_cents: maybe(whole()), insider: bps, institutional: bps, quotes: quotesOf(QUOTED_FIELDS.float_snapshots), evidence })
      .map(({ shares, insider, institutional, evidence: e, ...f }) => ({
        ticker,
        as_of: `2024-0${i + 1}-15`,
        float_shares: shares[0],
        outstanding_shares: shares[1],
        ...f,
        insider_ownership_bps: insider,
        institutional_ownership_bps: institutional,
        ...e,
      }));
  const reverseSplit = (i: number) =>
    fc
      .record({ old_shares: fc.integer({ min: 2, max: 1_000_000 }), quotes: quotesOf(QUOTED_FIELDS.reverse_splits), evidence })
      .chain((r) => fc.record({ r: fc.constant(r), new_shares: fc.integer({ min: 1, max: r.old_shares - 1 }) }))
      .map(({ r: { evidence: e, ...r }, new_shares }) => ({ ticker, effective_date: `2024-0${i + 1}-20`, ...r, new_shares, ...e }));
  const financials = fc
    .record({ period_end: day, cash_cents: whole(), quarterly_burn_cents: maybe(whole()), debt_cents: maybe(whole()), reg_sho: maybe(fc.boolean()), evidence })
    .chain((r) => fc.record({ r: fc.constant(r), filed_at: laterDay(r.period_end) }))
    .map(({ r: { evidence: e, ...r }, filed_at }) => ({ ticker, ...r, filed_at, ...e }));
  return fc
    .record({
      registrations: fc.tuple(...TWO.map(registration)),
      offerings: fc.tuple(...TWO.map(offering)),
      dilution_instruments: fc.tuple(...TWO.map(instrument)),
      compliance_deficiencies: fc.tuple(...TWO.map(deficiency)),
      float_snapshots: fc.tuple(...TWO.map(float)),
      reverse_splits: fc.tuple(...TWO.map(reverseSplit)),
      financial_reports: fc.tuple(financials),
    })
    .map((records) => ({ companies: [{ ticker, name: `Property ${run}`, exchange: "Nasdaq" }], ...records }));
}

describe("the estimate with changed values", () => {
  it("is identical whatever the records hold (same counts), and the bill never exceeds it", async () => {
    let run = 0;
    let baseline: Map<string, unknown> | undefined;
    await fc.assert(
      fc.asyncProperty(
        fc.constant(null).chain(() => {
          run++;
          // Same length every run: the ticker is the request's, its length a public fact.
          const ticker = `P${String(run).padStart(3, "0")}`;
          return companyRecords(ticker, run).map((dataset) => ({ ticker, dataset }));
        }),
        async ({ ticker, dataset }) => {
          const report = await importDataset(t.prisma, dataset);
          expect(report.errors, JSON.stringify(report.errors.slice(0, 3))).toEqual([]);
          const estimates = new Map<string, unknown>();
          for (const endpoint of ENDPOINT_LIST) {
            for (const variant of variants(endpoint)) {
              const query = `ticker=${ticker}${variant}`;
              const estimate = await estimateOf(endpoint, query);
              expect(estimate.records_returned, `${endpoint.name} ${query}`).toBe(endpoint.name === "dilution-rating" ? 1 : 2);
              estimates.set(`${endpoint.name}${variant}`, estimate);
              await expectBilledWithin(endpoint, query, estimate);
            }
          }
          baseline ??= estimates;
          expect(Object.fromEntries(estimates)).toEqual(Object.fromEntries(baseline));
        },
      ),
      { numRuns: 25, endOnFailure: true },
    );
    expect(run).toBeGreaterThanOrEqual(25);
  }, 300_000);
});
