/**
 * The records the data endpoints serve, one zod schema each. A schema is the
 * source of its record's TypeScript type (the serializers in index.ts
 * return it), its field names in record order (what `fields=` accepts), each
 * field's description (the OpenAPI document, lib/api/openapi.ts) and each
 * field's width: the most bytes its value can take in the JSON the API sends
 * (what /estimate prices, see `maxRecordBytes` in index.ts).
 *
 * A new field is one entry in its record's schema, built with one of the
 * field kinds below (each carries its width, so a field without one does not
 * compile), plus the line of its serializer that writes it and the column
 * its query selects.
 *
 * Widths say nothing about the values (a rating of "Low" and one of "Medium"
 * are estimated alike):
 * - Enumerations: the longest member. Dates: "YYYY-MM-DD". Booleans: false.
 * - Numbers from stored whole numbers (bigint columns of at most 2^63 − 1,
 *   never negative on import): shares at most 19 digits; dollars from cents
 *   or micro-dollars at most 17 significant digits and a point; percents from
 *   basis points (0–10,000) at most "99.99". A computed number (estimated
 *   cash, burn, months) is bounded by the widest finite JSON number,
 *   "-0.0000012345678901234567" (25 bytes). records.test.ts checks each
 *   bound over its whole range.
 * - Free text: its documented maximum in bytes of JSON text (SERVED_TEXT_BYTES
 *   in import/schema.ts, which imports enforce), and the serializers cut
 *   anything longer that an older import let in (`clampText`). A rating's
 *   *_desc is at most MAX_RATING_DESC_BYTES, and its `sources` lists at most
 *   MAX_RATING_SOURCES filings.
 */
import { z } from "zod";
import type { EndpointName } from "@/lib/catalog";
import type { DilutionRating } from "@/lib/ratings/types";
import { ACCESSION_LENGTH, IMPORTED_SOURCE, SAMPLE_SOURCE, type SourceJson } from "./evidence";
import {
  AGENT_ROLES,
  DEFICIENCY_STATUSES,
  INSTRUMENT_TYPES,
  INSTRUMENT_STATUSES,
  ANTI_DILUTION_KINDS,
  XBRL_VERDICTS,
  MAX_HOLDERS,
  MAX_STATUS_UPDATES,
  MAX_TICKER_LENGTH,
  OFFERING_STATUSES,
  OFFERING_TYPES,
  QUOTED_FIELDS,
  RISK_LEVELS,
  SERVED_TEXT_BYTES,
} from "../import/schema";
import { jsonTextBytes } from "../units";

/** The longest a rating's *_desc text may be, in bytes of JSON text; a longer one is cut and ends with "…". */
export const MAX_RATING_DESC_BYTES = 400;
/** The most filings a rating's `sources` lists (the latest). */
export const MAX_RATING_SOURCES = 10;

// ───────────────────────────── widths ─────────────────────────────

export const quoted = (bytes: number) => bytes + 2;
const longestOf = (values: readonly string[]) => quoted(Math.max(...values.map(jsonTextBytes)));
const orNull = (bytes: number) => Math.max(bytes, "null".length);
const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;
/** The width of a JSON object with fields of these widths. */
export const objectWidth = (fields: Record<string, number>) => {
  const entries = Object.entries(fields);
  return 2 + entries.reduce((sum, [name, width]) => sum + quoted(jsonTextBytes(name)) + 1 + width, 0) + Math.max(0, entries.length - 1);
};
/** The width of a JSON array of at most `count` items of `item` bytes each. */
const arrayWidth = (count: number, item: number) => 2 + count * item + Math.max(0, count - 1);

/** Widths of value kinds, in bytes of JSON. */
export const VALUE_WIDTHS = {
  /** Upper-case letters, digits, "." and "-": the request names the ticker, so its own length may be used instead. */
  ticker: quoted(MAX_TICKER_LENGTH),
  date: quoted("YYYY-MM-DD".length),
  boolean: "false".length,
  /** A whole count from a bigint column of at most 2^63 − 1 (shares). */
  count: 19,
  /** Dollars from bigint cents or micro-dollars of at most 2^63 − 1. */
  dollars: 18,
  /** Percent from 0–10,000 basis points. */
  percent: 5,
  /** Any finite JSON number. */
  anyNumber: 25,
  rating: longestOf(RISK_LEVELS),
  ratingDesc: quoted(MAX_RATING_DESC_BYTES),
} as const;
const W = VALUE_WIDTHS;

/** The width of each measured schema (a registry of its own: widths are not part of the OpenAPI document). */
const WIDTHS = z.registry<{ width: number }>();
declare const measured: unique symbol;
/** A schema whose values are at most this wide: every record field is one (or one that may be null or absent). */
type Measured<T extends z.ZodType = z.ZodType> = T & { readonly [measured]: true };
type Field = Measured | z.ZodNullable<Measured> | z.ZodOptional<Measured>;

function measure<T extends z.ZodType>(schema: T, width: number): Measured<T> {
  WIDTHS.add(schema, { width });
  return schema as Measured<T>;
}

/** The most bytes of JSON a value of this schema can take. */
function widthOf(schema: z.ZodType): number {
  const own = WIDTHS.get(schema);
  if (own) return own.width;
  if (schema instanceof z.ZodNullable) return orNull(widthOf(schema.unwrap() as z.ZodType));
  if (schema instanceof z.ZodOptional) return widthOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodObject) return objectWidth(fieldWidths(schema));
  throw new Error("a schema without a width");
}

const fieldWidths = <S extends z.ZodObject>(schema: S) =>
  Object.fromEntries(Object.entries(schema.shape).map(([name, field]) => [name, widthOf(field as z.ZodType)])) as Record<keyof S["shape"] & string, number>;

// ───────────────────────────── field kinds ─────────────────────────────

/** A closed record: exactly these fields, in this order. */
const record = <const S extends Record<string, Field>>(shape: S, description: string) => z.strictObject(shape).describe(description);

const ticker = () => measure(z.string().describe("Ticker symbol (upper case)."), W.ticker);
/** Free text of at most SERVED_TEXT_BYTES[kind] bytes. */
const text = (kind: keyof typeof SERVED_TEXT_BYTES, description: string) => measure(z.string().describe(description), quoted(SERVED_TEXT_BYTES[kind]));
/** One of these words (the document says string: stored values are served as they are). */
const word = (values: readonly string[], description: string) => measure(z.string().describe(description), longestOf(values));
const date = (description: string) => measure(z.iso.date().describe(description), W.date);
const boolean = (description: string) => measure(z.boolean().describe(description), W.boolean);
/** Shares: a stored whole count. */
const count = (description: string) => measure(z.number().describe(description), W.count);
/** Dollars from stored cents or micro-dollars, or (W.anyNumber) computed. */
const dollars = (description: string, width: number = W.dollars) => measure(z.number().describe(`${description} In dollars.`), width);
const percent = (description: string) => measure(z.number().describe(description), W.percent);
/** A number the API computes (not a stored one). */
const computed = (description: string) => measure(z.number().describe(description), W.anyNumber);
const rating = (what: string) => measure(z.enum(RISK_LEVELS).describe(`Rating of ${what}: Low, Medium or High.`), W.rating);
const ratingDesc = (description: string) => measure(z.string().describe(description), W.ratingDesc);

// ───────────────────────────── records ─────────────────────────────

const dilutionRating = record(
  {
    ticker: ticker(),
    offering_ability: rating("the company's ability to raise money by offering shares (shelf capacity, ATM)"),
    offering_ability_desc: ratingDesc("Explanation of offering_ability."),
    dilution: rating("the potential dilution from warrants, convertibles and offering capacity"),
    dilution_desc: ratingDesc("Explanation of dilution; starts with a percentage, e.g. \"38.2% potential dilution: …\"."),
    offering_frequency: rating("how often the company offered shares in the last two years"),
    offering_frequency_desc: ratingDesc("Explanation of offering_frequency: counts of offering types over the last two years."),
    cash_need: rating("the company's need for cash"),
    cash_need_desc: ratingDesc("Explanation of cash_need: months of cash left."),
    nasdaq_compliance: rating("exchange listing-compliance risk"),
    nasdaq_compliance_desc: ratingDesc("Explanation of nasdaq_compliance."),
    overall_offering_risk: rating("the overall offering risk (composite)"),
    regsho: boolean("On the Reg SHO threshold list (short-sale restriction); null when unknown (no threshold list covers today and no report states it).").nullable(),
    estimated_cash: dollars(
      "Estimated cash now: reported cash less the burn since the report's period end; the reported cash when the burn is unknown; null when no financial report is on file.",
      W.anyNumber,
    ).nullable(),
    cash_burn: dollars(
      "Operating cash burn per quarter; 0 when the company does not burn cash; null when unknown (no report, or operating cash flow not reported).",
      W.anyNumber,
    ).nullable(),
    cash_remaining_months: computed(
      "Estimated months of cash remaining (1 decimal); null when the company does not burn cash or no financial report is on file.",
    ).nullable(),
    warrant_exercise: rating(
      "how much stock outstanding warrants are likely to be exercised into: warrant shares weighted by how near their exercise prices are to the latest share price, against shares outstanding",
    ),
    warrant_exercise_desc: ratingDesc(
      "Explanation of warrant_exercise: the weighted percent of shares outstanding, the warrant shares in the money (pre-funded ones included), near and far out of the money, and the share price compared with (the last close, else the float snapshot's price, else the latest offering price) and its date.",
    ),
    going_concern: boolean(
      "The latest financial report states substantial doubt about the company continuing as a going concern (it raises cash_need); null when no report states it either way.",
    ).nullable(),
  },
  "A composite dilution-risk rating, computed when requested.",
);

const xbrlCheckObject = z
  .strictObject({
    verdict: word(XBRL_VERDICTS, "agrees, disagrees (the text's figure differs from the tag by more than 0.5 %), or xbrl_only (no filing's text states it)."),
      used: word(["text", "xbrl"], "The figure served: the text's, whose words are quoted, whenever the text states it; XBRL's only when it alone does."),
      xbrl_value: computed("The tagged figure compared: a count, or a price in dollars; null when not one number.").nullable(),
      xbrl_accession: text("accessionNumber", "The filing whose XBRL tag was compared.").nullable(),
    })
    .describe("The figures beside the company's XBRL facts as of the same day (ClassOfWarrantOrRightOutstanding, ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1, DebtInstrumentConvertibleConversionPrice1); null when no tag was compared.");
const xbrlCheck = measure(xbrlCheckObject, widthOf(xbrlCheckObject));

const dilutionData = record(
  {
    ticker: ticker(),
    instrument_type: word(
      INSTRUMENT_TYPES,
      "warrant, convertible_note, convertible_preferred, or equity_line (a committed equity facility: the company may sell shares to one purchaser up to a commitment).",
    ),
    name: text("instrumentName", "Name of the instrument."),
    issued_date: date("Issue date."),
    expiration_date: date("Expiration or maturity date; null when none.").nullable(),
    shares_underlying: count(
      "Shares the instrument converts into or can be exercised for, adjusted for the reverse splits since it was stated (split_adjustment); null when no fixed count is stated (a convertible without a fixed conversion price).",
    ).nullable(),
    exercise_price: dollars("Exercise or conversion price per share, split-adjusted like shares_underlying; null when not fixed.").nullable(),
    principal_amount: dollars(
      "Convertible notes: the principal first reported; convertible preferred: the stated value first reported; equity lines: the purchaser's commitment. null for warrants or when not stated.",
    ).nullable(),
    remaining_amount: dollars(
      "Convertible notes: principal outstanding (not yet converted or repaid) as of as_of; convertible preferred: stated value outstanding; equity lines: the commitment not yet drawn. null for warrants or when not stated.",
    ).nullable(),
    registered: boolean(
      "Registered under the Securities Act (sold under a prospectus, so the shares are free to trade on exercise); false when issued privately; null when no filing says.",
    ).nullable(),
    pre_funded: boolean("A pre-funded warrant: nearly all of the price paid at issue, exercisable for a nominal price."),
    exercisable_date: date("First day the instrument can be exercised or converted; null when the filings do not state it.").nullable(),
    status: word(
      INSTRUMENT_STATUSES,
      "outstanding; expired (its expiration date has passed); exercised, converted or redeemed (a filing states it was exercised, converted, or repaid or redeemed in full). An ended instrument stays listed.",
    ),
    as_of: date("The day the latest state is stated for (a periodic report's period end, a prospectus's date); null when not stated.").nullable(),
    conversion_price: dollars("Convertibles: the conversion price per share, split-adjusted; null for warrants or when not fixed.").nullable(),
    stated_shares_underlying: count("shares_underlying as the latest filing stated it, before split_adjustment; null when it equals shares_underlying or is unknown.").nullable(),
    stated_price: dollars("The exercise or conversion price as the latest filing stated it, before split_adjustment; null when it equals the adjusted price or is unknown.").nullable(),
    split_adjustment: text(
      "ratio",
      'The reverse splits that took effect after the latest filing stated the figures, applied to them, as one ratio (e.g. "1-for-10"); null when none.',
    ).nullable(),
    anti_dilution: word(ANTI_DILUTION_KINDS, "Price protection as a filing states it: none, customary, full_ratchet or reset; null when not stated.").nullable(),
    holders: measure(
      z
        .array(z.string())
        .max(MAX_HOLDERS)
        .describe(
          `The holders the filing that issued it names: the purchasers of an 8-K's purchase agreement (an equity line's counterparty; for a placement agent's own warrants, the agent when the sentence issuing them names it), at most ${MAX_HOLDERS}, in the filing's order; null when none is named (a registered offering's public buyers never are).`,
        ),
      arrayWidth(MAX_HOLDERS, quoted(SERVED_TEXT_BYTES.partyName)),
    ).nullable(),
    placement_agent: text(
      "partyName",
      "The placement agent or underwriter of the offering the instrument was issued in, as the 8-K or prospectus names it; null when not named.",
    ).nullable(),
    reported_total: boolean(
      "A periodic report's total for all the company's warrants, given without a breakdown by series: it covers the warrants listed here that were issued on or before its as_of (count them once).",
    ),
    xbrl_check: xbrlCheck.nullable(),
  },
  "A warrant or convertible outstanding.",
);

const registration = record(
  {
    ticker: ticker(),
    accession_number: text("accessionNumber", "SEC accession number of the filing."),
    form_type: text("formType", "Form type, e.g. S-3, F-3, S-1, S-3ASR."),
    file_number: text("fileNumber", "SEC file number."),
    filed_date: date("Filing date."),
    effective_date: date("Date the registration became effective; null when not (yet) effective.").nullable(),
    expiration_date: date("Date the registration expires; null when unknown.").nullable(),
    is_effective: boolean("Declared effective."),
    is_expired: boolean("Expired as of today."),
    is_atm: boolean("An at-the-market program."),
    offering_amount: dollars(
      "Total size of the registration; null when the filings do not state it (an automatic shelf, S-3ASR/F-3ASR, has no registered maximum; older filings have no fee exhibit).",
    ).nullable(),
    amount_remaining_atm: dollars("Amount still available on the at-the-market program; null when not an ATM or not reported.").nullable(),
    over_baby_shelf: boolean(
      "Public float at filing at or above $75M: the baby-shelf limit does not apply. null when the public float at filing is unknown.",
    ).nullable(),
    public_float: dollars("Public float value at filing; null when unknown.").nullable(),
    baby_shelf_capacity: dollars(
      "S-3/F-3 shelves and ATM programs: what the baby-shelf limit (General Instruction I.B.6 of Form S-3) lets the company still sell in the 12 months up to the as-of day, one figure per company: what a filing states may still be sold, for a day in those 12 months; else one third of the company's latest known public float (baby_shelf_public_float) less what it sold off its S-3/F-3 shelves in the 12 calendar months before the day (baby_shelf_sold_12m), never below 0. null when the limit does not apply (latest public float $75M or more), the float is unknown, or a sale in the 12 months cannot be counted.",
    ).nullable(),
    is_resale: boolean("Registers shares for selling holders to resell: the company raises nothing, and it is not offering capacity."),
    is_shelf: boolean(
      "Registered for a delayed or continuous offering under Rule 415 (S-3 and F-3 shelves, and S-1s whose facing page says so); false for a registration statement of one offering (listed under /v1/offerings while pending); null when unknown.",
    ).nullable(),
    atm_agent: text("underwriter", "At-the-market programs: the sales agent, as the prospectus names it; null otherwise or when not stated.").nullable(),
    atm_commission_percent: percent("At-the-market programs: the sales agent's commission, in percent of gross sales; null when not stated.").nullable(),
    deregistered_date: date("Date a post-effective amendment removed the unsold securities from registration; null when it has not.").nullable(),
    amount_remaining_atm_as_of: date(
      "At-the-market programs: the day amount_remaining_atm is stated for (the latest periodic report's, or the prospectus's filing date when no sale is reported yet); null otherwise.",
    ).nullable(),
    atm_sold_amount: dollars("At-the-market programs: gross sales to date as the latest periodic report states them; null when not stated.").nullable(),
    atm_sold_shares: count("At-the-market programs: shares sold to date as the latest periodic report states them; null when not stated.").nullable(),
    atm_report_accession: text("accessionNumber", "At-the-market programs: the periodic report the remaining amount and sales were read from; null when none.").nullable(),
    baby_shelf_sold_12m: dollars(
      "What was sold under I.B.6 in the 12 months baby_shelf_capacity speaks of: as the filing states it, else the sum taken off (priced shelf takedowns, ATM sales reported for a day in them); null when the limit does not apply or a sale cannot be counted.",
    ).nullable(),
    baby_shelf_as_of: date("The day the baby-shelf figures are for: the stated day, or the as-of day for a computed figure; null when the limit does not apply.").nullable(),
    baby_shelf_public_float: dollars(
      "The public float baby_shelf_capacity is one third of when it is computed: float shares × price, else the cover page's figure (dei:EntityPublicFloat), else the latest S-3/F-3 or ATM registration's; null for a stated figure or when the limit does not apply.",
    ).nullable(),
    baby_shelf_public_float_as_of: date("The day baby_shelf_public_float is for; null when not known (a registration's float at filing keeps no day).").nullable(),
  },
  "A registration statement (a shelf, a registration of one offering, or a resale registration) or an at-the-market program.",
);

const statusUpdate = z.strictObject({ date: date("Date of the update."), text: text("statusUpdateText", "The update.") });

const compliance = record(
  {
    ticker: ticker(),
    deficiency: text("deficiency", "Kind of deficiency, e.g. minimum_bid_price or stockholders_equity; may be empty."),
    status: word(DEFICIENCY_STATUSES, "active or resolved."),
    risk_level: word(RISK_LEVELS, "Risk level of the deficiency: Low, Medium or High."),
    notice_date: date("Date of the exchange's notice."),
    deadline: date("Deadline to regain compliance; null when none.").nullable(),
    resolved_date: date("Date the deficiency was resolved; null while active.").nullable(),
    status_updates: measure(z.array(statusUpdate).describe("Status updates, oldest first."), arrayWidth(MAX_STATUS_UPDATES, widthOf(statusUpdate))),
  },
  "An exchange listing-compliance deficiency.",
);

const float = record(
  {
    ticker: ticker(),
    as_of: date("Date of the snapshot."),
    float: count(
      "Shares in the public float; null when unknown (SEC filings state the public float in dollars, so shares need a closing price).",
    ).nullable(),
    outstanding: count("Shares outstanding."),
    price: dollars("Share price at the snapshot; null when unknown.").nullable(),
    market_cap_final: dollars("Market capitalisation; absent when unknown.").optional(),
    insider_ownership_pct: percent("Insider ownership in percent; null when unknown.").nullable(),
    institutional_ownership_pct: percent("Institutional ownership in percent; null when unknown.").nullable(),
  },
  "A float and shares-outstanding snapshot.",
);

const offering = record(
  {
    ticker: ticker(),
    offering_date: date("Date of the offering."),
    offering_type: word(OFFERING_TYPES, `${OFFERING_TYPES.join(", ")}. public_offering is an underwritten (firm-commitment) offering.`),
    form_type: text("formType", "Form type of the filing; null when unknown.").nullable(),
    shares: count("Shares sold; null when unknown.").nullable(),
    price: dollars("Price per share; null when unknown.").nullable(),
    amount: dollars(
      "Gross amount of the offering; null when the filing does not state it (the takedown's fee exhibit, where present, gives it).",
    ).nullable(),
    warrants_issued: count("Warrants issued with the offering; null when none reported.").nullable(),
    warrant_exercise_price: dollars("Exercise price of those warrants; null when none.").nullable(),
    underwriter: text("underwriter", "Underwriter, placement agent or sales agent (agent_role says which); null when unknown.").nullable(),
    accession_number: text("accessionNumber", "SEC accession number of the filing."),
    status: word(
      OFFERING_STATUSES,
      "priced: sold (or, for an ATM, a program in place); pending: a registration statement for this offering is on file and no prospectus has priced it; withdrawn: its registration was withdrawn (form RW).",
    ),
    agent_role: word(AGENT_ROLES, `${AGENT_ROLES.join(", ")}; null when unknown.`).nullable(),
    prefunded_warrants: count("Shares underlying the pre-funded warrants offered; null when none stated.").nullable(),
    prefunded_warrant_price: dollars("Exercise price of the pre-funded warrants; null when none.").nullable(),
    net_proceeds: dollars("Proceeds to the company before expenses, as the prospectus states them; null when not stated.").nullable(),
    fee_percent: percent("Underwriting discount, placement fee or sales commission, in percent; null when not stated as a percentage.").nullable(),
    overallotment_shares: count("Shares covered by the underwriters' over-allotment option; null when none stated.").nullable(),
    anticipated_amount: dollars(
      "The maximum aggregate offering price of the first registration statement for this offering (its fee table); null when there is none or it does not state one.",
    ).nullable(),
    revised_anticipated_amount: dollars("The latest amendment's maximum aggregate offering price, when it differs from anticipated_amount; null otherwise.").nullable(),
    withdrawn_date: date("Date of the withdrawal (form RW); null unless withdrawn.").nullable(),
  },
  "An offering: priced, or in the pipeline (pending or withdrawn).",
);

/** "1-for-N" with both numbers at most the import's bound (1,000,000). */
const SPLIT_RATIO_WIDTH = quoted("1000000-for-1000000".length);

const reverseSplit = record(
  {
    ticker: ticker(),
    effective_date: date("Day the split took effect (or takes effect, when a filing states it in advance)."),
    ratio: measure(z.string().describe('"1-for-N": N shares became one (or "M-for-N").'), SPLIT_RATIO_WIDTH),
    old_shares: count("Shares before the split for each new_shares after it (N of 1-for-N)."),
    new_shares: count("Shares after the split for each old_shares (1 unless the filing states otherwise)."),
  },
  "A reverse stock split: share counts divide, and per-share prices multiply, by old_shares / new_shares from its effective date.",
);

/** Each endpoint's record. */
export const API_RECORD_SCHEMAS = {
  "dilution-rating": dilutionRating,
  "dilution-data": dilutionData,
  registrations: registration,
  "nasdaq-compliance": compliance,
  "float-outstanding": float,
  offerings: offering,
  "reverse-splits": reverseSplit,
} as const satisfies Record<EndpointName, z.ZodObject>;
type Schemas = typeof API_RECORD_SCHEMAS;

/** A compile error unless A is assignable to B; A otherwise. */
type AssignableTo<A extends B, B> = A;

/** /v1/dilution-rating: the ratings engine's record type (lib/ratings does not import lib/data), which must be this schema's both ways. */
export type DilutionRatingRecord = AssignableTo<z.infer<Schemas["dilution-rating"]>, AssignableTo<DilutionRating, z.infer<Schemas["dilution-rating"]>>>;
/** /v1/dilution-data */
export type DilutionDataRecord = z.infer<Schemas["dilution-data"]>;
/** /v1/registrations (the import's row is import/schema.ts's RegistrationRecord) */
export type RegistrationApiRecord = z.infer<Schemas["registrations"]>;
/** /v1/nasdaq-compliance */
export type ComplianceRecord = z.infer<Schemas["nasdaq-compliance"]>;
/** /v1/float-outstanding (market_cap_final is absent when unknown) */
export type FloatRecord = z.infer<Schemas["float-outstanding"]>;
/** /v1/reverse-splits */
export type ReverseSplitApiRecord = z.infer<Schemas["reverse-splits"]>;
/** /v1/offerings (the import's row is import/schema.ts's OfferingRecord) */
export type OfferingApiRecord = z.infer<Schemas["offerings"]>;

type FieldName<E extends EndpointName> = keyof Schemas[E]["shape"] & string;
const byEndpoint = <T>(value: (endpoint: EndpointName) => T) =>
  Object.fromEntries(Object.keys(API_RECORD_SCHEMAS).map((e) => [e, value(e as EndpointName)])) as Record<EndpointName, T>;

/** Each endpoint's record fields, in record order (the evidence field aside): what `fields=` may name. */
export const API_RECORD_FIELDS = byEndpoint((e) => Object.keys(API_RECORD_SCHEMAS[e].shape)) as { [E in EndpointName]: readonly FieldName<E>[] };

/** The widest each record field can be, by endpoint and field. */
export const RECORD_WIDTHS = byEndpoint((e) => fieldWidths(API_RECORD_SCHEMAS[e])) as { [E in EndpointName]: Record<FieldName<E>, number> };

// ───────────────────────────── evidence ─────────────────────────────

const secFiling = z.strictObject({
  type: measure(z.literal("sec_filing"), longestOf(["sec_filing"])),
  accession_number: measure(z.string().describe("SEC accession number."), quoted(ACCESSION_LENGTH)),
  form: text("formType", "Form type, e.g. 10-Q, S-3ASR, 424B5, 8-K."),
  filed_date: date("Filing date."),
  url: measure(z.url().describe("The filing on sec.gov."), quoted(SERVED_TEXT_BYTES.url)),
});

/** The quote of each value read from the filing's text, by field: at most one per field of `fields`. */
const quotesOf = (fields: readonly [string, ...string[]]) =>
  measure(
    z
      .partialRecord(z.enum(fields), z.string())
      .describe("The filing's own words each value was read from, by field (at most 200 characters each); only the fields read from its text."),
    objectWidth(Object.fromEntries(fields.map((field) => [field, quoted(SERVED_TEXT_BYTES.quote)]))),
  );

/** One `source`: a filing (with the quotes of the fields it read, for records that keep them), or the note of sample or imported data. */
function sourceSchema(quotedFields?: readonly [string, ...string[]]) {
  const filing = quotedFields ? secFiling.extend({ quotes: quotesOf(quotedFields).optional() }) : secFiling;
  return measure(
    z
      .discriminatedUnion("type", [
        filing,
        z.strictObject({ type: z.literal("sample"), note: z.string() }),
        z.strictObject({ type: z.literal("import"), note: z.string() }),
      ])
      .describe("Where a record came from: an SEC filing, or a note that it is sample or imported data."),
    Math.max(widthOf(filing), jsonBytes(SAMPLE_SOURCE), jsonBytes(IMPORTED_SOURCE)),
  );
}

export const SOURCE_SCHEMA = sourceSchema(QUOTED_FIELDS.offerings);
/** SourceJson (evidence.ts) is this schema's type, both ways. */
export type SourceRecord = AssignableTo<z.infer<typeof SOURCE_SCHEMA>, AssignableTo<SourceJson, z.infer<typeof SOURCE_SCHEMA>>>;

/** The import kind whose quotes each endpoint's records serve. */
const QUOTES_OF: Partial<Record<EndpointName, keyof typeof QUOTED_FIELDS>> = {
  registrations: "registrations",
  offerings: "offerings",
  "dilution-data": "dilution_instruments",
  "float-outstanding": "float_snapshots",
  "reverse-splits": "reverse_splits",
};

/** The field `includeSource` appends to each record, and its schema: a rating lists every filing, other records name one. */
const EVIDENCE = {
  ...byEndpoint((endpoint) => {
    const kind = QUOTES_OF[endpoint];
    return {
      field: "source" as const,
      schema: sourceSchema(kind ? QUOTED_FIELDS[kind] : undefined)
        .optional()
        .describe("Only with include=source: the filing this record came from, with the quote of each value read from its text."),
    };
  }),
  "dilution-rating": {
    field: "sources" as const,
    schema: measure(z.array(sourceSchema()), arrayWidth(MAX_RATING_SOURCES, widthOf(sourceSchema())))
      .optional()
      .describe("Only with include=source: every filing the ratings used, latest first."),
  },
};

/** The evidence field of each endpoint's records (the last field, with include=source). */
export const EVIDENCE_FIELDS = byEndpoint((e) => EVIDENCE[e].field) as { [E in EndpointName]: (typeof EVIDENCE)[E]["field"] };

/** The widest `include=source` evidence of each endpoint's records. */
export const EVIDENCE_WIDTHS = byEndpoint((e) => widthOf(EVIDENCE[e].schema));

/** The record as served, its evidence field admitted (present only with include=source). */
export function servedRecordSchema(endpoint: EndpointName) {
  const schema = API_RECORD_SCHEMAS[endpoint];
  return schema.extend({ [EVIDENCE[endpoint].field]: EVIDENCE[endpoint].schema }).describe(schema.description ?? "");
}
