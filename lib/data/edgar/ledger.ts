/**
 * The instrument ledger: warrants, convertible notes and convertible
 * preferred followed across a company's filings. Pure: map.ts hands it the
 * instruments the prospectuses issued and what the periodic reports state,
 * in the order they were filed, and it returns one row per instrument (its
 * latest state, split-adjusted) and every state a filing gave (the history).
 * docs/filings.md ("The instrument ledger") says the same for readers of the API.
 *
 * - **Recognising an instrument again.** A periodic report's warrant series is
 *   the tracked warrant (same kind, pre-funded or not, issued on or before the
 *   report's date) whose series name is the same; else whose expiry is the same
 *   and whose count or price is (so a price reset or a partial exercise is
 *   followed); else, when an expiry is unknown on either side, whose count and
 *   price are both the same. A convertible is the tracked one of its kind with
 *   the same name, else the same maturity, else the same conversion price and
 *   principal. Counts and prices are compared in one share basis (below), within
 *   half a percent. Exactly one candidate must match: none, or more than one,
 *   makes a new instrument, never a guess.
 * - **Share basis.** A filing states counts and prices after every reverse
 *   split that took effect by its filing day (financial statements are restated
 *   for a split before they are issued; a prospectus states post-split figures).
 *   So a figure is moved to a later day's basis by the splits effective after
 *   the day it was filed, never by those before: a report that re-quotes a count
 *   after a split is not divided again, and one filed between two splits is
 *   adjusted by the second only.
 * - **A total without series.** A report that gives only the total of its
 *   warrants (a warrant table's total line, the anti-dilutive count) makes one
 *   instrument flagged `reported_total`, followed from report to report; it
 *   covers the warrants issued on or before its date. A report that breaks its
 *   warrants down by series does not also add its total.
 * - **Status.** An instrument is outstanding until a filing says otherwise; a
 *   warrant whose expiry has passed is expired. Nothing a filing does not state
 *   is inferred: a count that falls is a new state, not an exercise.
 * - **Closings.** A periodic report or an 8-K that states named instruments
 *   were exercised, converted or repaid (redeemed, settled) in full
 *   (./documents/closings.ts) closes each one it names, after that filing's
 *   figures: a name is the tracked instrument of a kind the event closes
 *   (exercised: a warrant; converted, redeemed: a convertible note or
 *   preferred) whose series name is the same (a convertible's distinctive
 *   words; "the Pre-Funded Warrants" also the one pre-funded warrant no series
 *   names). Exactly one open instrument must match; none, or more than one,
 *   closes nothing and says so in the notes. The closing is a new state (the
 *   status, as of the day the filing states, else its report day; the figures
 *   it closed kept, a convertible's remaining amount 0), quoted under
 *   `status`; the instrument stays listed. A later report that states a closed
 *   instrument as of a day on or before its closing re-quotes an earlier
 *   state: nothing changes (a note). One that states it outstanding as of a
 *   later day is the latest evidence: the instrument is reopened on its
 *   figures, with a note.
 */
import type { DilutionInstrumentRecord, InstrumentStateRecord, InstrumentStatus, ReverseSplitRecord } from "../import/schema";
import { SERVED_TEXT_BYTES } from "../import/schema";
import { jsonTextBytes } from "../units";
import { adjustPrice, adjustShares, isNoSplit, splitFactor, splitRatio, type SplitFactor, type SplitOnDay } from "@/lib/utils/splits";
import type { ClosingEvent, ClosingKind } from "./documents/closings";
import type { Convertible, EquityLine, PeriodicReading, WarrantSeries } from "./documents/periodic-report";
import type { Filing } from "./filings";

type Evidence = Pick<DilutionInstrumentRecord, "source_accession" | "source_form" | "source_filed_at" | "source_url">;
type Kind = DilutionInstrumentRecord["instrument_type"];

/** One state of an instrument as one filing stated it, in the share basis of the day it was filed. */
interface State {
  knownAt: string;
  asOf: string;
  status: InstrumentStatus;
  shares: bigint | null;
  priceMicros: bigint | null;
  principalCents: bigint | null;
  remainingCents: bigint | null;
  expires: string | null;
  /** Quotes by the API field of the instrument row. */
  quotes: Record<string, string>;
  evidence: Evidence;
}

interface Tracked {
  /** The row as first recorded: identity and the facts no later state restates (registered, pre-funded, exercisable date). */
  base: DilutionInstrumentRecord;
  series: string | null;
  states: State[];
}

export interface PeriodicReportFiled {
  filing: Filing;
  reading: PeriodicReading;
}

/** A filing other than a periodic report (an 8-K) that states closings, with the quotes of its reading ("closings[0].kind"). */
export interface ClosingsFiled {
  filing: Filing;
  closings: ClosingEvent[];
  evidence: Record<string, string>;
}

/** An instrument as a prospectus or an 8-K issued it; `series` names it for recognising it again (a warrant series, an equity line's purchaser). */
export interface IssuedInstrument {
  record: DilutionInstrumentRecord;
  series?: string | null;
}

export interface LedgerInput {
  ticker: string;
  /** "YYYY-MM-DD": expiry is judged on this day, and splits effective by it are applied. */
  today: string;
  /** Instruments as the prospectuses and 8-Ks issued them (their first state). */
  issued: IssuedInstrument[];
  /** Periodic reports, each with what it states (its closings too). */
  reports: PeriodicReportFiled[];
  /** 8-Ks that state closings; applied in filing order among the reports. */
  closings?: ClosingsFiled[];
  splits: ReverseSplitRecord[];
  evidence: (filing: Filing) => Evidence;
}

export interface Ledger {
  instruments: DilutionInstrumentRecord[];
  states: InstrumentStateRecord[];
  notes: string[];
}

/** Counts and prices within this fraction are the same (rounding in tables, "in thousands"). */
const SAME_WITHIN = 0.005;
/** An 8-K and a prospectus announcing the same issue are filed within days of each other. */
const SAME_ISSUE_DAYS = 10;
const daysApart = (a: string, b: string) => Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;

const big = (value: string | number | bigint | null | undefined): bigint | null => (value === null || value === undefined ? null : BigInt(value));
const dollarsToMicros = (dollars: number | null) => (dollars === null ? null : BigInt(Math.round(dollars * 1_000_000)));
const dollarsToCents = (dollars: number | null) => (dollars === null ? null : BigInt(Math.round(dollars * 100)));

function near(a: bigint | null, b: bigint | null): boolean {
  if (a === null || b === null) return false;
  if (a === b) return true;
  const larger = a > b ? a : b;
  const diff = a > b ? a - b : b - a;
  return larger > 0n && Number(diff) <= Number(larger) * SAME_WITHIN;
}

/** "Series A Warrants" and "series a warrant" alike; "2026 Notes" and "the 2026 notes" alike. */
export function seriesKey(name: string | null | undefined): string | null {
  if (!name) return null;
  const key = name
    .toLowerCase()
    .replace(/[’']s\b/g, "")
    .replace(/\b(?:the|of|our|company|common|stock|shares?|warrants?|notes?|outstanding|to purchase)\b/g, " ")
    .replace(/[^a-z0-9.%]+/g, " ")
    .trim();
  return key || null;
}

/** "YA II PN, Ltd." and "YA II PN Ltd" alike: a purchaser's or agent's first two words. */
export function partyKey(name: string | null | undefined): string | null {
  const words = (name ?? "")
    .toLowerCase()
    .replace(/\./g, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w && w !== "the");
  return words.length ? words.slice(0, 2).join(" ") : null;
}

/** Words of a convertible's name that any such instrument has: without others, the name tells nothing. */
const GENERIC_NAME_WORDS = new Set(["convertible", "promissory", "senior", "secured", "unsecured", "subordinated", "debenture", "debentures", "preferred", "exchangeable", "term", "loan", "and"]);

/** A series key without its generic words; null when nothing else is left. */
function distinctive(key: string | null): string | null {
  const words = (key ?? "").split(" ").filter((w) => w && !GENERIC_NAME_WORDS.has(w));
  return words.length ? words.join(" ") : null;
}

/** The kinds of instrument each closing ends. */
const CLOSES: Record<ClosingKind, Kind[]> = {
  exercised: ["warrant"],
  converted: ["convertible_note", "convertible_preferred"],
  redeemed: ["convertible_note", "convertible_preferred"],
};

/** The kind of instrument a name says it is: "Series A Warrants", "2024 Convertible Note", "Series B Preferred Stock". */
function kindOfName(name: string): Kind | null {
  if (/\bwarrants?\b/i.test(name)) return "warrant";
  if (/\bpreferred\b/i.test(name)) return "convertible_preferred";
  if (/\b(?:notes?|debentures?)\b/i.test(name)) return "convertible_note";
  return null;
}

function quoteOf(evidence: Record<string, string>, path: string): string | undefined {
  const quote = evidence[path];
  return quote && jsonTextBytes(quote) <= SERVED_TEXT_BYTES.quote ? quote : undefined;
}

function compact(quotes: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(quotes).filter((e): e is [string, string] => e[1] !== undefined));
}

function clampName(name: string): string {
  let out = name;
  while (jsonTextBytes(out) > SERVED_TEXT_BYTES.instrumentName) out = out.slice(0, -2) + "…";
  return out;
}

export function buildLedger(input: LedgerInput): Ledger {
  const { ticker } = input;
  const splits: SplitOnDay[] = input.splits.map((s) => ({ effectiveDate: s.effective_date, oldShares: BigInt(s.old_shares), newShares: BigInt(s.new_shares ?? 1) }));
  const notes: string[] = [];
  const tracked: Tracked[] = [];
  const latest = (t: Tracked) => t.states.at(-1)!;
  /** Tracks an instrument under a name no other has (the name is the import's key): a second "Warrants of …" becomes "Warrants of … (2)". */
  const track = (t: Tracked) => {
    const taken = new Set(tracked.filter((o) => o.base.instrument_type === t.base.instrument_type).map((o) => o.base.name));
    for (let n = 2; taken.has(t.base.name); n++) t.base = { ...t.base, name: clampName(`${t.base.name.replace(/ \(\d+\)$/, "")} (${n})`) };
    tracked.push(t);
    return t;
  };
  const byIssue = [...input.issued].sort((a, b) => (a.record.issued_at < b.record.issued_at ? -1 : a.record.issued_at > b.record.issued_at ? 1 : 0));
  for (const { record, series } of byIssue) {
    const state: State = {
      knownAt: record.source_filed_at ?? record.issued_at,
      asOf: record.issued_at,
      status: "outstanding",
      shares: big(record.shares_underlying),
      priceMicros: big(record.exercise_price_micros ?? record.conversion_price_micros),
      principalCents: big(record.principal_cents),
      remainingCents: big(record.remaining_cents),
      expires: record.expires_at ?? null,
      quotes: { ...(record.quotes ?? {}) },
      evidence: {
        source_accession: record.source_accession,
        source_form: record.source_form,
        source_filed_at: record.source_filed_at,
        source_url: record.source_url,
      },
    };
    // The same issue announced twice (an 8-K beside its prospectus): one instrument, with both filings' states.
    const twins = tracked.filter(
      (t) =>
        t.base.instrument_type === record.instrument_type &&
        t.states.every((s) => s.evidence.source_accession !== record.source_accession) &&
        (t.base.pre_funded ?? false) === (record.pre_funded ?? false) &&
        daysApart(t.base.issued_at, record.issued_at) <= SAME_ISSUE_DAYS &&
        (record.instrument_type === "equity_line"
          ? (series ?? null) !== null && series === t.series
          : near(latest(t).shares, state.shares) && (latest(t).priceMicros === null || state.priceMicros === null || near(latest(t).priceMicros, state.priceMicros))),
    );
    if (twins.length === 1) {
      const twin = twins[0]!;
      twin.states.push({ ...state, expires: state.expires ?? latest(twin).expires, priceMicros: state.priceMicros ?? latest(twin).priceMicros });
      twin.states.sort((a, b) => (a.knownAt < b.knownAt ? -1 : a.knownAt > b.knownAt ? 1 : 0));
      twin.base = {
        ...twin.base,
        registered: twin.base.registered ?? record.registered ?? null,
        exercisable_at: twin.base.exercisable_at ?? record.exercisable_at ?? null,
        anti_dilution: twin.base.anti_dilution ?? record.anti_dilution ?? null,
        holders: twin.base.holders ?? record.holders ?? null,
        placement_agent: twin.base.placement_agent ?? record.placement_agent ?? null,
      };
      continue;
    }
    track({ base: record, series: series ?? null, states: [state] });
  }
  /** The latest state's count and price in the basis of `day`. */
  const inBasisOf = (t: Tracked, day: string) => {
    const state = latest(t);
    const factor = splitFactor(splits, state.knownAt, day);
    return { shares: adjustShares(state.shares, factor), price: adjustPrice(state.priceMicros, factor), principal: state.principalCents };
  };
  /**
   * When a report filed after one or more reverse splits states an instrument's
   * count (or, without one, its price) as it was before some of them, the split
   * factor from that earlier basis to the report's filing day; null when the
   * report states it in its own basis (or nothing tells).
   */
  const requotedFrom = (t: Tracked, shares: bigint | null, price: bigint | null, filedAt: string): SplitFactor | null => {
    const state = latest(t);
    const between = splits.filter((s) => s.effectiveDate > state.knownAt && s.effectiveDate <= filedAt).sort((a, b) => (a.effectiveDate < b.effectiveDate ? -1 : 1));
    if (between.length === 0) return null;
    const same = (basis: { shares: bigint | null; price: bigint | null }) => (shares !== null ? near(basis.shares, shares) : near(basis.price, price));
    if (same(inBasisOf(t, filedAt))) return null;
    for (let k = 0; k < between.length; k++) {
      const upTo = k === 0 ? state.knownAt : between[k - 1]!.effectiveDate;
      const older = splitFactor(splits, state.knownAt, upTo);
      if (same({ shares: adjustShares(state.shares, older), price: adjustPrice(state.priceMicros, older) })) return splitFactor(splits, upTo, filedAt);
    }
    return null;
  };

  // the periodic reports and the 8-Ks that state closings, in the order they were filed (a report before an 8-K of its day)
  const timeline = [
    ...input.reports.map((r) => ({ filing: r.filing, reading: r.reading as PeriodicReading | null, closings: r.reading.report.closings ?? [], evidence: r.reading.evidence })),
    ...(input.closings ?? []).map((c) => ({ filing: c.filing, reading: null, closings: c.closings, evidence: c.evidence })),
  ].sort((a, b) => (a.filing.filedAt < b.filing.filedAt ? -1 : a.filing.filedAt > b.filing.filedAt ? 1 : Number(a.reading === null) - Number(b.reading === null)));
  for (const { filing, reading, closings, evidence } of timeline) {
    const filedAt = filing.filedAt;
    const reportDay = reading?.report.period ?? filing.reportDate ?? filedAt;
    const source = input.evidence(filing);
    const matchedHere = new Set<Tracked>();
    const label = `${filing.form} ${filing.accessionNumber}`;

    const pick = (candidates: Tracked[], what: string): Tracked | null => {
      const open = candidates.filter((t) => !matchedHere.has(t));
      if (open.length > 1) notes.push(`${label}: ${what} matches ${open.length} tracked instruments: recorded as a new one`);
      return open.length === 1 ? open[0]! : null;
    };
    /**
     * The instrument a report's figures update among those they match: the
     * open one (as `pick`); else a closed one they re-disclose. Stated as of a
     * day on or before its closing, an earlier state re-quoted: nothing changes
     * ("skip", with a note). Stated as of a later day, the latest evidence: it
     * is reopened on the report's figures, with a note. Several closed ones
     * that the day does not rule out: a new instrument, never a guess.
     */
    const resolve = (candidates: Tracked[], what: string, asOf: string): Tracked | "skip" | null => {
      const open = candidates.filter((t) => latest(t).status === "outstanding");
      if (open.length > 0) return pick(open, what);
      const closed = candidates.filter((t) => !matchedHere.has(t));
      if (closed.length === 0) return null;
      const ended = (t: Tracked) => `${latest(t).status} as of ${latest(t).asOf} (${latest(t).evidence.source_form} ${latest(t).evidence.source_accession})`;
      if (closed.every((t) => asOf <= latest(t).asOf)) {
        notes.push(`${label}: ${what} is stated as of ${asOf}, not after it was ${ended(closed[0]!)}: an earlier state re-quoted, not taken`);
        return "skip";
      }
      if (closed.length > 1) {
        notes.push(`${label}: ${what} matches ${closed.length} closed instruments: recorded as a new one`);
        return null;
      }
      notes.push(`${label}: ${what} is stated outstanding as of ${asOf}, after it was ${ended(closed[0]!)}: reopened on the report's figures`);
      return closed[0]!;
    };

    if (reading) {
      const { report } = reading;
      report.warrants.forEach((w: WarrantSeries, i) => {
        const at = `warrants[${i}]`;
        const asOf = w.as_of ?? reportDay;
        const preFunded = w.pre_funded === true;
        const shares = w.shares_outstanding === null ? null : BigInt(w.shares_outstanding);
        const price = dollarsToMicros(w.exercise_price);
        const key = seriesKey(w.series);
        const candidates = tracked.filter((t) => {
          if (t.base.instrument_type !== "warrant" || t.base.reported_total || (t.base.pre_funded ?? false) !== preFunded) return false;
          if (t.base.issued_at > asOf && !w.subsequent) return false;
          if (key !== null && t.series !== null) return key === t.series;
          // the figures as the report's day has them, or as an earlier basis had them when the report re-quotes those
          const requoted = requotedFrom(t, shares, price, filedAt);
          const known = requoted ? { shares: adjustShares(shares, requoted), price: adjustPrice(price, requoted) } : { shares, price };
          const theirs = inBasisOf(t, filedAt);
          const expiry = latest(t).expires;
          if (expiry && w.expiry) return expiry === w.expiry && (near(theirs.shares, known.shares) || near(theirs.price, known.price));
          return near(theirs.shares, known.shares) && near(theirs.price, known.price);
        });
        const state: State = {
          knownAt: filedAt,
          asOf,
          status: "outstanding",
          shares,
          priceMicros: price,
          principalCents: null,
          remainingCents: null,
          expires: w.expiry,
          quotes: compact({
            shares_underlying: quoteOf(evidence, `${at}.shares_outstanding`),
            exercise_price: quoteOf(evidence, `${at}.exercise_price`),
            expiration_date: quoteOf(evidence, `${at}.expiry`),
          }),
          evidence: source,
        };
        const match = resolve(candidates, `warrant series ${w.series ?? i + 1}`, asOf);
        if (match === "skip") return;
        if (match) {
          const requoted = requotedFrom(match, shares, price, filedAt);
          if (requoted) {
            notes.push(`${label}: warrant series ${w.series ?? i + 1} is stated as before a reverse split since its last state: adjusted, not taken as a change`);
            state.shares = adjustShares(shares, requoted);
            state.priceMicros = adjustPrice(price, requoted);
          }
          match.states.push({ ...state, expires: state.expires ?? latest(match).expires });
          match.series ??= key;
          matchedHere.add(match);
          return;
        }
        if (shares === null) return; // a series without a count is no instrument to list
        const name = clampName(`${w.series ? (/warrant/i.test(w.series) ? w.series : `${w.series} warrants`) : preFunded ? "Pre-funded warrants" : "Warrants"} (reported ${asOf}, ${label})`);
        matchedHere.add(track({ base: newRow(ticker, "warrant", name, asOf, preFunded, source), series: key, states: [state] }));
      });

      const total = report.warrants_total;
      const trackedTotal = tracked.find((t) => t.base.reported_total);
      if (report.warrants.length > 0 && trackedTotal && !(total && total.shares_outstanding !== null)) {
        // A report that now breaks the warrants down by series: the total it covers is the sum of the series it lists, as of its day (so no warrant is counted twice).
        const counts = report.warrants.map((w) => w.shares_outstanding);
        if (counts.every((c) => c !== null)) {
          trackedTotal.states.push({
            knownAt: filedAt,
            asOf: reportDay,
            status: "outstanding",
            shares: counts.reduce((sum, c) => sum + BigInt(c!), 0n),
            priceMicros: null,
            principalCents: null,
            remainingCents: null,
            expires: null,
            quotes: {},
            evidence: source,
          });
        }
      }
      if (total && total.shares_outstanding !== null && (report.warrants.length === 0 || trackedTotal)) {
        const asOf = total.as_of ?? reportDay;
        const state: State = {
          knownAt: filedAt,
          asOf,
          status: "outstanding",
          shares: BigInt(total.shares_outstanding),
          priceMicros: dollarsToMicros(total.weighted_average_exercise_price),
          principalCents: null,
          remainingCents: null,
          expires: null,
          quotes: compact({
            shares_underlying: quoteOf(evidence, "warrants_total.shares_outstanding"),
            exercise_price: quoteOf(evidence, "warrants_total.weighted_average_exercise_price"),
          }),
          evidence: source,
        };
        if (trackedTotal) trackedTotal.states.push(state);
        else if (total.shares_outstanding > 0) {
          // ("There are no unexercised warrants outstanding": nothing to list until a report states some)
          const row = newRow(ticker, "warrant", "Warrants outstanding in total, as the periodic reports state them", asOf, false, source);
          row.reported_total = true;
          track({ base: row, series: null, states: [state] });
        }
      }

      (report.equity_lines ?? []).forEach((line: EquityLine, i) => {
        const at = `equity_lines[${i}]`;
        const asOf = line.as_of ?? reportDay;
        const commitment = dollarsToCents(line.commitment);
        const drawn = dollarsToCents(line.drawn_to_date);
        const remaining = dollarsToCents(line.remaining) ?? (commitment !== null && drawn !== null && drawn <= commitment ? commitment - drawn : null);
        const key = partyKey(line.counterparty);
        const candidates = tracked.filter((t) => {
          if (t.base.instrument_type !== "equity_line" || latest(t).status !== "outstanding" || t.base.issued_at > asOf) return false;
          if (key !== null && t.series !== null) return key === t.series;
          return near(latest(t).principalCents, commitment);
        });
        const state: State = {
          knownAt: filedAt,
          asOf,
          status: "outstanding",
          shares: null,
          priceMicros: null,
          principalCents: commitment,
          remainingCents: remaining,
          expires: null,
          quotes: compact({
            principal_amount: quoteOf(evidence, `${at}.commitment`),
            remaining_amount: quoteOf(evidence, line.remaining !== null ? `${at}.remaining` : `${at}.drawn_to_date`),
          }),
          evidence: source,
        };
        const match = pick(candidates, `equity line ${line.counterparty ?? i + 1}`);
        if (match) {
          const before = latest(match);
          match.states.push({ ...state, principalCents: state.principalCents ?? before.principalCents, expires: before.expires });
          match.series ??= key;
          matchedHere.add(match);
          return;
        }
        if (commitment === null && remaining === null) return;
        const name = clampName(`Equity line${line.counterparty ? ` with ${line.counterparty}` : ""} (reported ${asOf}, ${label})`);
        matchedHere.add(track({ base: newRow(ticker, "equity_line", name, asOf, false, source), series: key, states: [state] }));
      });

      report.convertibles.forEach((c: Convertible, i) => {
        const at = `convertibles[${i}]`;
        const kind: Kind = c.kind === "preferred" ? "convertible_preferred" : "convertible_note";
        const asOf = c.as_of ?? reportDay;
        const principal = dollarsToCents(c.principal_or_stated_outstanding);
        const price = dollarsToMicros(c.conversion_price);
        const key = seriesKey(c.name);
        const candidates = tracked.filter((t) => {
          if (t.base.instrument_type !== kind || t.base.issued_at > asOf) return false;
          // names that say which note it is ("Series A", "8%", "2026") decide; generic ones ("the convertible note") leave it to the maturity
          const mine = distinctive(key);
          const theirs = distinctive(t.series);
          if (mine !== null && theirs !== null) return mine === theirs;
          if (c.maturity && latest(t).expires) return c.maturity === latest(t).expires;
          const known = inBasisOf(t, filedAt);
          return near(known.price, price) && near(known.principal, principal);
        });
        const state: State = {
          knownAt: filedAt,
          asOf,
          status: "outstanding",
          shares: sharesOnConversion(principal, price),
          priceMicros: price,
          principalCents: principal,
          remainingCents: principal,
          expires: c.maturity,
          quotes: compact({
            remaining_amount: quoteOf(evidence, `${at}.principal_or_stated_outstanding`),
            conversion_price: quoteOf(evidence, `${at}.conversion_price`),
            exercise_price: quoteOf(evidence, `${at}.conversion_price`),
            expiration_date: quoteOf(evidence, `${at}.maturity`),
          }),
          evidence: source,
        };
        const match = resolve(candidates, `convertible ${c.name}`, asOf);
        if (match === "skip") return;
        if (match) {
          const before = latest(match);
          match.states.push({
            ...state,
            priceMicros: state.priceMicros ?? adjustPrice(before.priceMicros, splitFactor(splits, before.knownAt, filedAt)),
            expires: state.expires ?? before.expires,
          });
          const now = latest(match);
          now.shares ??= sharesOnConversion(now.remainingCents, now.priceMicros);
          match.series ??= key;
          matchedHere.add(match);
          return;
        }
        const name = clampName(`${c.name} (reported ${asOf}, ${label})`);
        matchedHere.add(track({ base: newRow(ticker, kind, name, asOf, false, source), series: key, states: [state] }));
      });
    }

    closings.forEach((event, i) => {
      const quote = quoteOf(evidence, `closings[${i}].kind`);
      // the day it happened, else the report's day (a subsequent event's undated: the day it became known)
      const asOf = event.date ?? (event.subsequent ? filedAt : reportDay);
      const closedHere = new Set<Tracked>();
      for (const name of event.instruments) {
        const what = `${name} (${event.kind}${event.date ? ` ${event.date}` : ""})`;
        const kind = kindOfName(name);
        if (kind === null || !CLOSES[event.kind].includes(kind)) {
          notes.push(`${label}: ${what} names no kind of instrument that is ${event.kind}: nothing closed`);
          continue;
        }
        const candidates = tracked.filter((t) => t.base.instrument_type === kind && !t.base.reported_total && t.base.issued_at <= asOf && namedAs(t, name));
        const open = candidates.filter((t) => latest(t).status === "outstanding");
        if (open.length !== 1) {
          // the same closing told again (a 10-Q after its 8-K) changes nothing and needs no word
          if (open.length === 0 && candidates.some((t) => latest(t).status === event.kind)) continue;
          notes.push(`${label}: ${what} matches ${open.length === 0 ? "no" : open.length} tracked instruments: nothing closed`);
          continue;
        }
        // a same-named instrument already closed this way: the sentence may be that closing told again (a 10-K
        // repeating a year-old exercise), not news about the open one
        if (candidates.some((c) => c !== open[0] && latest(c).status === event.kind)) {
          notes.push(`${label}: ${what} also names an instrument already ${event.kind}: nothing closed`);
          continue;
        }
        const t = open[0]!;
        if (closedHere.has(t)) continue;
        const before = latest(t);
        // a state that says it was still outstanding after that day (this filing's own, on that day too) outweighs the sentence
        if (matchedHere.has(t) ? before.asOf >= asOf : before.asOf > asOf) {
          notes.push(`${label}: ${what}, but ${before.evidence.source_form} ${before.evidence.source_accession} states it outstanding as of ${before.asOf}: not closed`);
          continue;
        }
        const factor = splitFactor(splits, before.knownAt, filedAt);
        t.states.push({
          knownAt: filedAt,
          asOf,
          status: event.kind,
          shares: adjustShares(before.shares, factor),
          priceMicros: adjustPrice(before.priceMicros, factor),
          principalCents: before.principalCents,
          remainingCents: before.remainingCents === null ? null : 0n,
          expires: before.expires,
          quotes: compact({ status: quote, remaining_amount: before.remainingCents === null ? undefined : quote }),
          evidence: source,
        });
        closedHere.add(t);
      }
    });
  }

  const instruments: DilutionInstrumentRecord[] = [];
  const states: InstrumentStateRecord[] = [];
  for (const t of tracked) {
    const last = latest(t);
    const expires = [...t.states].reverse().find((s) => s.expires)?.expires ?? null;
    const expired = t.base.instrument_type === "warrant" && last.status === "outstanding" && expires !== null && expires < input.today;
    const status: InstrumentStatus = expired ? "expired" : last.status;
    const factor = splitFactor(splits, last.knownAt, input.today);
    const shares = adjustShares(last.shares, factor);
    const price = adjustPrice(last.priceMicros, factor);
    const convertible = t.base.instrument_type === "convertible_note" || t.base.instrument_type === "convertible_preferred";
    const adjusted = !isNoSplit(factor) && (last.shares !== null || last.priceMicros !== null);
    const ratio = splitRatio(factor);
    if (adjusted && ratio === null) notes.push(`${t.base.name}: a split that is not 1-for-N was not applied`);
    const apply = adjusted && ratio !== null;
    instruments.push({
      ...t.base,
      expires_at: expires !== null && expires >= t.base.issued_at ? expires : null,
      shares_underlying: (apply ? shares : last.shares)?.toString() ?? null,
      exercise_price_micros: (apply ? price : last.priceMicros)?.toString() ?? null,
      conversion_price_micros: convertible ? ((apply ? price : last.priceMicros)?.toString() ?? null) : null,
      // the largest principal (stated value, commitment) any filing stated: a later tranche or a larger commitment raises it
      principal_cents: maxOf([...t.states.map((s) => s.principalCents), big(t.base.principal_cents), last.remainingCents])?.toString() ?? null,
      remaining_cents: last.remainingCents?.toString() ?? null,
      status,
      as_of: last.asOf >= t.base.issued_at ? last.asOf : t.base.issued_at,
      stated_shares_underlying: apply ? (last.shares?.toString() ?? null) : null,
      stated_price_micros: apply ? (last.priceMicros?.toString() ?? null) : null,
      split_adjustment: apply ? ratio : null,
      // the row cites the filing of its latest state, with that filing's words; earlier filings' stay with their states
      quotes: Object.keys(last.quotes).length ? last.quotes : null,
      ...last.evidence,
    });
    for (const s of t.states) {
      states.push({
        ticker,
        instrument_type: t.base.instrument_type,
        instrument_name: t.base.name,
        known_at: s.knownAt,
        as_of: s.asOf <= s.knownAt ? s.asOf : s.knownAt,
        status: s.status,
        shares_underlying: s.shares?.toString() ?? null,
        price_micros: s.priceMicros?.toString() ?? null,
        principal_cents: s.principalCents?.toString() ?? null,
        remaining_cents: s.remainingCents?.toString() ?? null,
        expires_at: s.expires,
        quotes: stateQuotes(s.quotes),
        ...s.evidence,
      });
    }
  }
  // One state per instrument, day known and day stated (the import's key): a later filing the same day wins.
  const unique = new Map(states.map((s) => [`${s.instrument_type}|${s.instrument_name}|${s.known_at}|${s.as_of}`, s]));
  return { instruments, states: [...unique.values()], notes };
}

/**
 * A tracked instrument is the one a closing names by the rules that recognise
 * a report's figures by name: a warrant of the same kind (pre-funded or not)
 * whose series name is the same, or, for "the Pre-Funded Warrants" (a name that
 * says only that), the pre-funded warrant no series names; a convertible whose
 * distinctive words are the same, or whose name is the same generic one.
 */
function namedAs(t: Tracked, name: string): boolean {
  const key = seriesKey(name);
  if (t.base.instrument_type === "warrant") {
    const preFunded = /\bpre-?funded\b|\bprefunded\b/i.test(name);
    if ((t.base.pre_funded ?? false) !== preFunded) return false;
    if (key !== null && t.series !== null) return key === t.series;
    return t.series === null && preFunded && key !== null && key.replace(/[^a-z]/g, "") === "prefunded";
  }
  const mine = distinctive(key);
  if (mine !== null) return mine === distinctive(t.series);
  return key !== null && key === t.series;
}

/** A state's quotes under the history's field names. */
function stateQuotes(quotes: Record<string, string>): InstrumentStateRecord["quotes"] {
  const out = compact({
    shares_underlying: quotes.shares_underlying,
    price: quotes.conversion_price ?? quotes.exercise_price,
    remaining_amount: quotes.remaining_amount,
    expiration_date: quotes.expiration_date,
    status: quotes.status,
  });
  return Object.keys(out).length ? out : null;
}

/**
 * The common shares a convertible's outstanding amount converts into at its
 * stated conversion price (both stated; the count is their quotient, rounded
 * down); null when either is not stated.
 */
function sharesOnConversion(amountCents: bigint | null, priceMicros: bigint | null): bigint | null {
  if (amountCents === null || priceMicros === null || priceMicros <= 0n) return null;
  return (amountCents * 10_000n) / priceMicros;
}

function maxOf(values: (bigint | null)[]): bigint | null {
  return values.reduce<bigint | null>((max, v) => (v !== null && (max === null || v > max) ? v : max), null);
}

function newRow(ticker: string, kind: Kind, name: string, issuedAt: string, preFunded: boolean, evidence: Evidence): DilutionInstrumentRecord {
  return {
    ticker,
    instrument_type: kind,
    name,
    issued_at: issuedAt,
    expires_at: null,
    shares_underlying: null,
    exercise_price_micros: null,
    principal_cents: null,
    remaining_cents: null,
    registered: null,
    pre_funded: preFunded,
    exercisable_at: null,
    reported_total: false,
    quotes: null,
    ...evidence,
  };
}
