import { Parser } from "htmlparser2";
import { BLOCK_TAGS, BlockBuilder, cleanText, PARSER_OPTIONS, rowText, type Block, type TextPlace } from "./html";
import { applyFormat, scaleDecimal } from "./ixbrl-formats";
import { quoteAround, sentencesOf } from "./text";

/**
 * A document's own inline XBRL (iXBRL 1.1, as EDGAR has required of 10-Qs
 * and 10-Ks since 2019–2021): every `ix:nonFraction` and `ix:nonNumeric`,
 * shown or hidden in `ix:header`, nested ones kept, `ix:continuation` chains
 * followed and `ix:exclude` left out of the value; each fact with its context
 * (the period, an instant or a duration, and the dimension members that say
 * which instrument or scenario it is of), its unit, `scale`, `decimals`,
 * `sign` and `format` (./ixbrl-formats.ts), and the quote of the visible
 * sentence or table row that shows it.
 *
 * Read in the same single htmlparser2 pass that builds the document's blocks
 * (./html.ts), so the quote is the text a reader of the page sees.
 */
export interface XbrlDimension {
  /** the axis, as written ("us-gaap:ClassOfWarrantOrRightAxis") */
  dimension: string;
  /** an explicit member ("us-gaap:SeriesAWarrantsMember"), or null for a typed one */
  member: string | null;
  /** a typed member's value */
  typed: string | null;
}

export interface XbrlContext {
  id: string;
  entity: string | null;
  /** an instant (YYYY-MM-DD), a duration, or forever */
  period: { instant: string } | { start: string; end: string } | { forever: true } | null;
  dimensions: XbrlDimension[];
}

export interface XbrlFact {
  id: string | null;
  /** the concept as written ("us-gaap:ClassOfWarrantOrRightOutstanding") */
  concept: string;
  /** the URI the concept's prefix stands for in the document, null when undeclared */
  namespace: string | null;
  numeric: boolean;
  contextRef: string | null;
  context: XbrlContext | null;
  unitRef: string | null;
  /** the unit's measures without prefixes: "USD", "shares", "USD/shares", "pure" */
  unit: string | null;
  decimals: string | null;
  scale: number;
  sign: "-" | null;
  format: string | null;
  /** the text as shown (continuations joined, exclusions left out) */
  text: string;
  /**
   * The value as XBRL reads it: a number for numeric facts (scale and sign
   * applied), else the format's output (an ISO date, a duration, a code,
   * true / false) or the text. Null when nil or when it could not be read.
   */
  value: number | string | boolean | null;
  /** why a fact with text has no value (an unknown format, text the format does not accept) */
  unread: string | null;
  nil: boolean;
  /** not on the page as such: in `ix:hidden`, or in content styled `display:none` */
  hidden: boolean;
  /** the visible sentence or table row that shows it (for a hidden fact, the element that shows its value), or null */
  quote: string | null;
  /** where that is among the document's blocks: the block, and the row of a table (null in prose) */
  shownAt: { block: number; row: number | null } | null;
  /** index of the fact this one is nested in, or null */
  parent: number | null;
}

export interface InlineXbrl {
  facts: XbrlFact[];
  contexts: Map<string, XbrlContext>;
  units: Map<string, string>;
  /** what could not be read, in words (unknown formats, facts without context) */
  problems: string[];
}

export interface InlineXbrlReading {
  blocks: Block[];
  /** null when the document holds no inline XBRL */
  xbrl: InlineXbrl | null;
}

const INLINE_XBRL_NAMESPACE = /^http:\/\/www\.xbrl\.org\/20(?:08|13)\/inlineXBRL$/;

interface OpenFact {
  index: number;
  depth: number;
  parts: string[];
}

interface OpenContinuation {
  id: string;
  depth: number;
  parts: string[];
  continuedAt: string | null;
}

/** An element that starts a new line or cell on the page: the text on either side of it are separate words. */
function isBreak(name: string): boolean {
  return BLOCK_TAGS.has(name) || name === "td" || name === "th" || name === "tr";
}

/** The local part of a QName ("xbrli:context" → "context"). */
function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon >= 0 ? name.slice(colon + 1) : name;
}

function prefixOf(name: string): string {
  const colon = name.indexOf(":");
  return colon >= 0 ? name.slice(0, colon) : "";
}

/** The measures of a unit without prefixes, a division written "USD/shares". */
function unitName(numerator: string[], denominator: string[]): string {
  const names = (measures: string[]) => measures.map(localName).join("*");
  return denominator.length ? `${names(numerator)}/${names(denominator)}` : names(numerator);
}

const XML_SCHEMA_INSTANCE = "http://www.w3.org/2001/XMLSchema-instance";

/** `xsi:nil="true"`, whatever prefix the document gives the schema-instance namespace (one recorded 10-Q writes `xs:nil`). */
function isNil(attributes: Record<string, string>, namespaceOf: (prefix: string) => string | null): boolean {
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.endsWith(":nil") || !/^(?:true|1)$/i.test(value.trim())) continue;
    const prefix = key.slice(0, -4);
    if (prefix === "xsi" || namespaceOf(prefix) === XML_SCHEMA_INSTANCE) return true;
  }
  return false;
}

/** `-sec-ix-hidden: <id>` on a visible element points to the hidden fact it shows. */
const SEC_IX_HIDDEN = /-sec-ix-hidden\s*:\s*([^;"'\s]+)/i;

/**
 * Reads a document's blocks and, when it is inline XBRL, its facts; one pass.
 * Never throws on malformed markup (beyond ./html.ts's depth limit).
 */
export function readInlineXbrl(html: string): InlineXbrlReading {
  const builder = new BlockBuilder();
  const facts: XbrlFact[] = [];
  const places: (TextPlace | null)[] = [];
  /** per fact: its own text, the continuation it goes on in, the URI of its format's prefix */
  const ownTexts: string[] = [];
  const chains: (string | null)[] = [];
  const formatNamespaces: (string | null)[] = [];
  const contexts = new Map<string, XbrlContext>();
  const units = new Map<string, string>();
  const problems: string[] = [];
  const continuations = new Map<string, { parts: string[]; continuedAt: string | null }>();
  const hiddenShownAt = new Map<string, TextPlace>();

  // namespace declarations in scope: a stack of maps, pushed only by elements that declare some
  const scopes: { depth: number; map: Map<string, string> }[] = [{ depth: 0, map: new Map() }];
  const namespaceOf = (prefix: string) => scopes[scopes.length - 1]!.map.get(prefix) ?? null;
  let isInlineXbrl = false;

  let depth = 0;
  let headerDepth = 0; // depth of ix:header, 0 outside
  let hiddenSectionDepth = 0; // depth of ix:hidden
  let excludeDepth = 0; // how many ix:exclude are open
  const openFacts: OpenFact[] = [];
  const openContinuations: OpenContinuation[] = [];

  // contexts and units being read in ix:resources
  let context: XbrlContext | null = null;
  let contextText: { field: "entity" | "instant" | "start" | "end" | "explicit" | "typed"; parts: string[]; dimension?: string } | null = null;
  let period: { instant?: string; start?: string; end?: string; forever?: boolean } = {};
  let unit: { id: string; numerator: string[]; denominator: string[]; side: "numerator" | "denominator" } | null = null;
  let measureParts: string[] | null = null;

  const ixLocal = (name: string): string | null => {
    if (!name.includes(":")) return null;
    const prefix = prefixOf(name);
    const ns = namespaceOf(prefix);
    if (ns ? INLINE_XBRL_NAMESPACE.test(ns) : prefix === "ix") return localName(name);
    return null;
  };

  const separate = () => {
    for (const f of openFacts) f.parts.push(" ");
    for (const c of openContinuations) c.parts.push(" ");
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        depth++;
        let declared: Map<string, string> | null = null;
        // namespaces are declared on the root (EDGAR's filers all do) or on an XBRL element; plain HTML elements are not scanned
        if (depth === 1 || name.includes(":")) for (const key in attributes) {
          if (!key.startsWith("xmlns:")) continue;
          const value = attributes[key]!;
          declared ??= new Map(scopes[scopes.length - 1]!.map);
          declared.set(key.slice(6), value);
          if (INLINE_XBRL_NAMESPACE.test(value)) isInlineXbrl = true;
        }
        if (declared) scopes.push({ depth, map: declared });

        const ix = ixLocal(name);
        builder.open(name, attributes, ix === "header");
        const style = attributes.style;
        if (style && !builder.hidden && style.includes("-sec-ix-hidden")) {
          const shown = SEC_IX_HIDDEN.exec(style);
          if (shown) {
            const place = builder.place();
            if (place) hiddenShownAt.set(shown[1]!, place);
          }
        }

        if (ix === "header") headerDepth = depth;
        else if (ix === "hidden") hiddenSectionDepth = depth;
        else if (ix === "exclude") excludeDepth++;
        else if (ix === "nonfraction" || ix === "nonnumeric") {
          const concept = attributes.name ?? "";
          const numeric = ix === "nonfraction";
          const scale = Number(attributes.scale ?? "0");
          const index = facts.length;
          facts.push({
            id: attributes.id ?? null,
            concept,
            namespace: namespaceOf(prefixOf(concept)),
            numeric,
            contextRef: attributes.contextref ?? null,
            context: null,
            unitRef: attributes.unitref ?? null,
            unit: null,
            decimals: attributes.decimals ?? null,
            scale: Number.isInteger(scale) ? scale : 0,
            sign: attributes.sign === "-" ? "-" : null,
            format: attributes.format ?? null,
            text: "",
            value: null,
            unread: null,
            nil: isNil(attributes, namespaceOf),
            hidden: hiddenSectionDepth > 0 || builder.hidden,
            quote: null,
            shownAt: null,
            parent: openFacts.length ? openFacts[openFacts.length - 1]!.index : null,
          });
          places.push(headerDepth > 0 ? null : builder.place());
          ownTexts.push("");
          chains.push(numeric ? null : attributes.continuedat ?? null);
          formatNamespaces.push(attributes.format ? namespaceOf(prefixOf(attributes.format)) : null);
          openFacts.push({ index, depth, parts: [] });
        } else if (ix === "continuation") {
          openContinuations.push({ id: attributes.id ?? "", depth, parts: [], continuedAt: attributes.continuedat ?? null });
        } else if (headerDepth > 0) {
          const local = localName(name);
          if (local === "context" && attributes.id) {
            context = { id: attributes.id, entity: null, period: null, dimensions: [] };
            period = {};
          } else if (context && local === "identifier") contextText = { field: "entity", parts: [] };
          else if (context && local === "instant") contextText = { field: "instant", parts: [] };
          else if (context && local === "startdate") contextText = { field: "start", parts: [] };
          else if (context && local === "enddate") contextText = { field: "end", parts: [] };
          else if (context && local === "forever") period.forever = true;
          else if (context && local === "explicitmember") contextText = { field: "explicit", parts: [], dimension: attributes.dimension ?? "" };
          else if (context && local === "typedmember") contextText = { field: "typed", parts: [], dimension: attributes.dimension ?? "" };
          else if (local === "unit" && attributes.id) unit = { id: attributes.id, numerator: [], denominator: [], side: "numerator" };
          else if (unit && local === "unitdenominator") unit.side = "denominator";
          else if (unit && local === "unitnumerator") unit.side = "numerator";
          else if (unit && local === "measure") measureParts = [];
        }
        if ((openFacts.length || openContinuations.length) && isBreak(name)) separate();
      },
      onclosetag(name) {
        const ix = ixLocal(name);
        if ((openFacts.length || openContinuations.length) && isBreak(name)) separate();
        builder.close(name);
        const topFact = openFacts[openFacts.length - 1];
        if (topFact && topFact.depth === depth) {
          openFacts.pop();
          ownTexts[topFact.index] = topFact.parts.join("");
        }
        const topContinuation = openContinuations[openContinuations.length - 1];
        if (topContinuation && topContinuation.depth === depth) {
          openContinuations.pop();
          continuations.set(topContinuation.id, { parts: topContinuation.parts, continuedAt: topContinuation.continuedAt });
        }
        if (ix === "exclude") excludeDepth = Math.max(0, excludeDepth - 1);
        if (ix === "hidden" && depth === hiddenSectionDepth) hiddenSectionDepth = 0;
        if (ix === "header" && depth === headerDepth) headerDepth = 0;
        if (headerDepth > 0 || ix === "header") {
          const local = localName(name);
          if (contextText && context && ["identifier", "instant", "startdate", "enddate", "explicitmember", "typedmember"].includes(local)) {
            const text = cleanText(contextText.parts.join(""));
            if (contextText.field === "entity") context.entity = text;
            else if (contextText.field === "instant") period.instant = text;
            else if (contextText.field === "start") period.start = text;
            else if (contextText.field === "end") period.end = text;
            else if (contextText.field === "explicit") context.dimensions.push({ dimension: contextText.dimension!, member: text, typed: null });
            else context.dimensions.push({ dimension: contextText.dimension!, member: null, typed: text });
            contextText = null;
          } else if (context && local === "context") {
            context.period = period.forever
              ? { forever: true }
              : period.instant
                ? { instant: period.instant.slice(0, 10) }
                : period.start && period.end
                  ? { start: period.start.slice(0, 10), end: period.end.slice(0, 10) }
                  : null;
            contexts.set(context.id, context);
            context = null;
          } else if (unit && local === "measure" && measureParts) {
            unit[unit.side].push(cleanText(measureParts.join("")));
            measureParts = null;
          } else if (unit && local === "unit") {
            units.set(unit.id, unitName(unit.numerator, unit.denominator));
            unit = null;
          }
        }
        while (scopes.length > 1 && scopes[scopes.length - 1]!.depth === depth) scopes.pop();
        depth--;
      },
      ontext(text) {
        builder.text(text);
        if (contextText) contextText.parts.push(text);
        if (measureParts) measureParts.push(text);
        if (excludeDepth > 0) return;
        for (const f of openFacts) f.parts.push(text);
        for (const c of openContinuations) c.parts.push(text);
      },
    },
    PARSER_OPTIONS,
  );

  parser.write(html);
  parser.end();
  const blocks = builder.end();
  if (!isInlineXbrl && facts.length === 0) return { blocks, xbrl: null };

  /** The text of a continuation chain from `id` on (a loop or a missing link ends it). */
  const continuationText = (id: string, concept: string): string => {
    const seen = new Set<string>();
    const out: string[] = [];
    for (let next: string | null = id; next; ) {
      if (seen.has(next)) {
        problems.push(`${concept}: continuation ${next} loops`);
        break;
      }
      seen.add(next);
      const part = continuations.get(next);
      if (!part) {
        problems.push(`${concept}: continuation ${next} is not in the document`);
        break;
      }
      out.push(part.parts.join(""));
      next = part.continuedAt;
    }
    return out.join(" ");
  };

  facts.forEach((fact, i) => {
    const chain = chains[i];
    fact.text = cleanText(chain ? `${ownTexts[i]} ${continuationText(chain, fact.concept)}` : ownTexts[i]!);
    fact.context = fact.contextRef ? contexts.get(fact.contextRef) ?? null : null;
    if (!fact.context) problems.push(`${fact.concept}: context ${fact.contextRef ?? "(none)"} is not defined`);
    fact.unit = fact.unitRef ? units.get(fact.unitRef) ?? null : null;
    readValue(fact, formatNamespaces[i] ?? null);
    if (fact.unread) problems.push(`${fact.concept} "${fact.text.slice(0, 40)}": ${fact.unread}`);
    const place = places[i] ?? (fact.id ? hiddenShownAt.get(fact.id) ?? null : null);
    fact.quote = place ? quoteAt(blocks, place, fact.text) : null;
    if (fact.quote && place) fact.shownAt = { block: place.block, row: place.row };
  });
  return { blocks, xbrl: { facts, contexts, units, problems } };
}

/** A fact's value from its text, format, scale and sign (see XbrlFact.value). */
function readValue(fact: XbrlFact, formatNamespace: string | null) {
  if (fact.nil) return;
  let read: string | boolean = fact.text;
  if (fact.format) {
    const result = applyFormat(fact.format, formatNamespace, fact.text);
    if (!result.ok) {
      fact.unread = result.reason;
      return;
    }
    read = result.value;
  }
  if (!fact.numeric) {
    fact.value = read;
    return;
  }
  const decimal = typeof read === "string" ? read.trim() : "";
  if (!/^\d+(?:\.\d+)?$/.test(decimal)) {
    fact.unread = fact.format ? `"${fact.text}" gave no number` : `"${fact.text}" is not a plain number and no format is named`;
    return;
  }
  const value = Number(scaleDecimal(decimal, fact.scale));
  fact.value = fact.sign === "-" && value !== 0 ? -value : value;
}

/** The sentence (or, in a table, the row) at a place, as a quote of at most 200 characters. */
function quoteAt(blocks: Block[], place: TextPlace, shown: string): string | null {
  const block = blocks[place.block];
  if (!block) return null;
  if (block.kind === "table") {
    const row = place.row === null ? null : block.rows[place.row];
    if (!row) return null;
    const text = rowText(row);
    const at = Math.max(0, text.indexOf(shown));
    return quoteAround(text, at, Math.min(text.length, at + shown.length));
  }
  const sentence = sentencesOf(block.text).findLast((s) => s.start <= place.offset) ?? { text: block.text, start: 0 };
  if (sentence.text.length <= 200) return sentence.text;
  const at = place.offset - sentence.start;
  return quoteAround(sentence.text, at, Math.min(sentence.text.length, at + Math.min(shown.length, 120)));
}
