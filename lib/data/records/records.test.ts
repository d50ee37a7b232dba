import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  complianceDeficiencySchema,
  dilutionInstrumentSchema,
  MAX_STATUS_UPDATES,
  offeringSchema,
  registrationSchema,
  SERVED_TEXT_BYTES,
} from "../import/schema";
import { API_RECORD_FIELDS, VALUE_WIDTHS } from "./schemas";
import { maxRecordBytes } from "@/lib/data/records";
import { bpsToPercent, centsToDollars, clampText, countToNumber, jsonTextBytes, microsToDollars } from "../units";

/** The widths the estimate counts on hold over each column's whole range. */

const INT64_MAX = 2n ** 63n - 1n;
const width = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;
const stored = fc.oneof(fc.bigInt({ min: 0n, max: INT64_MAX }), fc.constantFrom(0n, 1n, 10n ** 15n - 1n, 2n ** 53n + 1n, INT64_MAX - 1n, INT64_MAX));

describe("value widths", () => {
  it("bound shares, dollars and percents over their stored range", () => {
    fc.assert(
      fc.property(stored, (n) => {
        expect(width(countToNumber(n))).toBeLessThanOrEqual(VALUE_WIDTHS.count);
        expect(width(centsToDollars(n))).toBeLessThanOrEqual(VALUE_WIDTHS.dollars);
        expect(width(microsToDollars(n))).toBeLessThanOrEqual(VALUE_WIDTHS.dollars);
      }),
      { numRuns: 5_000 },
    );
    for (let bps = 0; bps <= 10_000; bps++) expect(width(bpsToPercent(bps))).toBeLessThanOrEqual(VALUE_WIDTHS.percent);
  }, 60_000);

  it("bound any finite number", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(width(x)).toBeLessThanOrEqual(VALUE_WIDTHS.anyNumber);
      }),
      { numRuns: 20_000 },
    );
    expect(width(-0.0000012345678901234567)).toBe(VALUE_WIDTHS.anyNumber);
  }, 60_000);

  it("price a record by its fields alone: the ticker the request names, the fields it asks for, the evidence with include=source", () => {
    const full = maxRecordBytes("dilution-rating", {});
    expect(maxRecordBytes("dilution-rating", { tickerLength: 4 })).toBe(full - 6);
    expect(maxRecordBytes("dilution-rating", { includeSource: true })).toBeGreaterThan(full);
    expect(maxRecordBytes("dilution-rating", { fields: ["overall_offering_risk"] })).toBe(width({ overall_offering_risk: "Medium" }));
    expect(maxRecordBytes("dilution-rating", { fields: [...API_RECORD_FIELDS["dilution-rating"]] })).toBe(full);
  });
});

describe("clampText", () => {
  it("keeps a text within its maximum whole, and cuts a longer one at a character with …", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), fc.integer({ min: 3, max: 60 }), (text, max) => {
        const clamped = clampText(text, max);
        expect(jsonTextBytes(clamped)).toBeLessThanOrEqual(max);
        if (jsonTextBytes(text) <= max) expect(clamped).toBe(text);
        else {
          expect(clamped.endsWith("…")).toBe(true);
          expect(text.startsWith(clamped.slice(0, -1))).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  }, 60_000);
});

describe("imports", () => {
  const over = (bytes: number) => '"'.repeat(Math.floor(bytes / 2) + 1); // each quote is two bytes in JSON
  const base = {
    registration: { ticker: "AAA", accession_number: "X-1", form_type: "S-3", file_number: "333-1", filed_at: "2024-01-02" },
    offering: { ticker: "AAA", accession_number: "X-2", offering_date: "2024-01-02", offering_type: "pipe" },
    instrument: { ticker: "AAA", instrument_type: "warrant", name: "Series A", issued_at: "2024-01-02", shares_underlying: 1 },
    deficiency: { ticker: "AAA", status: "active", risk: "High", notice_date: "2024-01-02" },
  };
  const refused = (schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }, record: object) => {
    const result = schema.safeParse(record);
    expect(result.success).toBe(false);
    return [...new Set(result.error!.issues.map((issue) => issue.path.join(".")))];
  };

  it("refuse served texts over their documented maximum in JSON bytes, however few characters", () => {
    expect(registrationSchema.safeParse(base.registration).success).toBe(true);
    expect(refused(registrationSchema, { ...base.registration, form_type: over(SERVED_TEXT_BYTES.formType) })).toEqual(["form_type"]);
    expect(refused(registrationSchema, { ...base.registration, source_url: `https://${"€".repeat(100)}` })).toEqual(["source_url"]);
    expect(refused(offeringSchema, { ...base.offering, underwriter: over(SERVED_TEXT_BYTES.underwriter) })).toEqual(["underwriter"]);
    expect(refused(dilutionInstrumentSchema, { ...base.instrument, name: "\u0001".repeat(40) })).toEqual(["name"]);
    expect(refused(complianceDeficiencySchema, { ...base.deficiency, deficiency: over(SERVED_TEXT_BYTES.deficiency) })).toEqual(["deficiency"]);
    expect(offeringSchema.safeParse({ ...base.offering, underwriter: "a".repeat(SERVED_TEXT_BYTES.underwriter) }).success).toBe(true);
  });

  it(`refuse more than ${MAX_STATUS_UPDATES} status updates, or a longer one than ${SERVED_TEXT_BYTES.statusUpdateText} bytes`, () => {
    const update = (text: string) => ({ date: "2024-01-03", text });
    const many = Array.from({ length: MAX_STATUS_UPDATES + 1 }, () => update("x"));
    expect(refused(complianceDeficiencySchema, { ...base.deficiency, status_updates: many })).toEqual(["status_updates"]);
    expect(refused(complianceDeficiencySchema, { ...base.deficiency, status_updates: [update("x".repeat(SERVED_TEXT_BYTES.statusUpdateText + 1))] })).toEqual([
      "status_updates.0.text",
    ]);
    expect(complianceDeficiencySchema.safeParse({ ...base.deficiency, status_updates: many.slice(1) }).success).toBe(true);
  });
});
