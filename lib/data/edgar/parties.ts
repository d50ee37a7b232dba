/**
 * The parties of a dilution instrument's issue, as the filing that issued it
 * names them (issue 26 item 3): its holders and the placement agent or
 * underwriter of the offering. Never inferred: a name is served only when the
 * filing states it in that role, with the words it was read from.
 *
 * - Holders: the purchasers an 8-K's purchase agreement names ("with Example
 *   Capital Master Fund Ltd. (the “Purchaser”)") hold what that financing
 *   issues to its purchasers (its warrants and notes); an equity line's holder
 *   is its counterparty. A placement agent's own warrants are held by the agent
 *   only when the sentence that issues them names it and does not leave them to
 *   "its designees". At most MAX_HOLDERS names, the first the filing names.
 *   Prospectuses are not read for holders: a registered offering's buyers are
 *   the public, and a resale prospectus's selling stockholders are not read.
 * - Placement agent: the 8-K's or the prospectus's placement agent or
 *   underwriter (not an at-the-market sales agent, which places no warrants).
 *   A prospectus's concurrent private placement gets none: the prospectus
 *   does not say who placed it.
 */
import type { DilutionInstrumentRecord } from "../import/schema";
import { MAX_HOLDERS, SERVED_TEXT_BYTES } from "../import/schema";
import { clampText, jsonTextBytes } from "../units";
import type { EightKTerms } from "./documents/eight-k-terms";
import type { OfferingTerms } from "./documents/prospectus";
import { partyKey } from "./ledger";

export interface Parties {
  holders: string[] | null;
  placement_agent: string | null;
  /** The quote of each, by API field (within the quote's maximum). */
  quotes: { holders?: string; placement_agent?: string };
}

export const NO_PARTIES: Parties = { holders: null, placement_agent: null, quotes: {} };

const fits = (quote: string | undefined): quote is string => quote !== undefined && quote !== "" && jsonTextBytes(quote) <= SERVED_TEXT_BYTES.quote;

/** Names as served: trimmed, within the name's maximum, once each (case aside), at most MAX_HOLDERS. */
function holderNames(names: readonly (string | null | undefined)[]): string[] | null {
  const kept: string[] = [];
  for (const raw of names) {
    const name = raw?.trim();
    if (!name) continue;
    const clamped = clampText(name, SERVED_TEXT_BYTES.partyName);
    if (kept.some((k) => k.toLowerCase() === clamped.toLowerCase())) continue;
    kept.push(clamped);
    if (kept.length === MAX_HOLDERS) break;
  }
  return kept.length ? kept : null;
}

function parties(holders: readonly (string | null | undefined)[], holdersQuote: string | undefined, agent: string | null, agentQuote: string | undefined): Parties {
  const names = holders.length && fits(holdersQuote) ? holderNames(holders) : null;
  const placement = agent?.trim() && fits(agentQuote) ? clampText(agent.trim(), SERVED_TEXT_BYTES.partyName) : null;
  return {
    holders: names,
    placement_agent: placement,
    quotes: { ...(names ? { holders: holdersQuote } : {}), ...(placement ? { placement_agent: agentQuote } : {}) },
  };
}

/** The 8-K's placement agent or underwriter (an at-the-market sales agent places no instrument). */
function eightKAgent(terms: EightKTerms): string | null {
  return terms.agent_role === "sales_agent" ? null : terms.placement_agent;
}

/** What an 8-K financing issues to its purchasers (warrants, notes): the purchasers it names, and its agent. */
export function eightKParties(terms: EightKTerms, evidence: Record<string, string>): Parties {
  const quote = evidence["purchasers[0]"];
  // Initial purchasers of a Rule 144A offering buy only to resell to institutions at once: they hold nothing afterwards.
  if (quote !== undefined && /\binitial purchasers?\b/i.test(quote)) return parties([], undefined, eightKAgent(terms), evidence.placement_agent);
  // An equity line's investor named in the same 8-K holds the line, not the notes or warrants sold beside it.
  const lineParty = partyKey(terms.equity_line?.counterparty);
  const kept = (terms.purchasers ?? []).map((name, i) => ({ name, i })).filter(({ name }) => lineParty === null || partyKey(name) !== lineParty);
  return parties(
    kept.map((p) => p.name),
    kept.length ? evidence[`purchasers[${kept[0]!.i}]`] : undefined,
    eightKAgent(terms),
    evidence.placement_agent,
  );
}

/** The placement agent's own warrants (`at`: "agent_warrants[i]"): held by the agent when the sentence issuing them names it, not its designees. */
export function agentWarrantParties(terms: EightKTerms, evidence: Record<string, string>, at: string): Parties {
  const agent = eightKAgent(terms);
  const quote = evidence[`${at}.shares`];
  const named = agent !== null && quote !== undefined && quote.toLowerCase().includes(agent.toLowerCase()) && !/\bdesignees?\b/i.test(quote);
  return parties(named ? [agent] : [], quote, agent, evidence.placement_agent);
}

/** An equity line: its counterparty holds it. */
export function equityLineParties(terms: EightKTerms, evidence: Record<string, string>): Parties {
  const counterparty = terms.equity_line?.counterparty ?? null;
  return parties(counterparty ? [counterparty] : [], evidence["equity_line.counterparty"], eightKAgent(terms), evidence.placement_agent);
}

/** What a prospectus registers and sells: its underwriter or placement agent (the public buys, so no holders). */
export function prospectusParties(terms: OfferingTerms, evidence: Record<string, string>): Parties {
  return parties([], undefined, terms.agent_role === "sales_agent" ? null : terms.agent, evidence.agent);
}

/** The record with its parties and their quotes beside the record's own. */
export function withParties(record: DilutionInstrumentRecord, p: Parties): DilutionInstrumentRecord {
  const quotes = { ...(record.quotes ?? {}), ...p.quotes };
  return { ...record, holders: p.holders, placement_agent: p.placement_agent, quotes: Object.keys(quotes).length ? quotes : null };
}
