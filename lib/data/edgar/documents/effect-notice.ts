/** EFFECT notices: the SEC's notice that a registration statement became effective, as XML or as the index's items. */
import { decodeEntities, normalizeCik, normalizeDate } from "./plain-text";

export interface EffectNotice {
  fileNumber: string;
  /** form made effective, e.g. "S-3", "POS AM"; null if absent */
  form: string | null;
  /** "YYYY-MM-DD" */
  effectiveDate: string;
  cik: string | null;
  entityName: string | null;
}

/** Every value of `<tag>` (any namespace prefix, any attributes), entities decoded and trimmed. */
function tagValues(xml: string, tag: string): string[] {
  const re = new RegExp(`<(?:[\\w.-]+:)?${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${tag}\\s*>`, "g");
  return [...xml.matchAll(re)].map((m) => decodeEntities((m[1] ?? "").replace(/<!\[CDATA\[|\]\]>/g, "")).trim());
}

function tagValue(xml: string, tag: string): string | null {
  return tagValues(xml, tag).find((value) => value !== "") ?? null;
}

/**
 * Both shapes EDGAR uses: the form made effective is `<submissionType>` inside
 * `<effectiveData>` (next to the notice's own `<submissionType>EFFECT` outside
 * it) or `<form>`. The date is `<finalEffectivenessDispDate>`.
 */
export function parseEffectNotice(xml: string): EffectNotice | null {
  const effectiveData = /<(?:[\w.-]+:)?effectiveData\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?effectiveData\s*>/.exec(xml);
  const inner = effectiveData?.[1] ?? "";
  const outer = effectiveData ? xml.replace(effectiveData[0], "") : xml;
  const ownType = tagValue(outer, "submissionType");
  if (ownType !== null ? ownType.toUpperCase() !== "EFFECT" : !effectiveData) return null;

  const scope = effectiveData ? inner : xml;
  const fileNumber = tagValue(scope, "fileNumber") ?? tagValue(xml, "fileNumber");
  const rawDate = tagValue(scope, "finalEffectivenessDispDate") ?? tagValue(xml, "finalEffectivenessDispDate");
  const effectiveDate = rawDate === null ? null : normalizeDate(rawDate);
  if (!fileNumber || !effectiveDate) return null;
  return {
    fileNumber,
    form: tagValue(scope, "form") ?? (effectiveData ? tagValue(inner, "submissionType") : null),
    effectiveDate,
    cik: normalizeCik(tagValue(scope, "cik") ?? tagValue(xml, "cik")),
    entityName: tagValue(scope, "entityName") ?? tagValue(xml, "entityName"),
  };
}

/** "S-4,,2019-05-10 16:00:00" (the `items` of an EFFECT row in submissions JSON) → form and date. */
export function parseEffectItems(items: string): { form: string | null; effectiveDate: string } | null {
  const parts = items.split(",").map((part) => part.trim());
  const dateIndex = parts.findIndex((part) => normalizeDate(part) !== null);
  if (dateIndex < 0) return null;
  const effectiveDate = normalizeDate(parts[dateIndex] ?? "");
  if (effectiveDate === null) return null;
  const first = parts[0] ?? "";
  return { form: dateIndex > 0 && first !== "" ? first : null, effectiveDate };
}
