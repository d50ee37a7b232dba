import type { ReactNode } from "react";

// Strings (a key when a colon follows), literals, numbers; what lies between is punctuation.
const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/**
 * Pretty-printed JSON with its keys, strings, numbers and literals coloured:
 * a few spans, no highlighting library. The text content is the JSON itself.
 */
export function JsonCode({ json }: { json: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of json.matchAll(TOKEN)) {
    const [text, string, colon, literal, number] = match;
    const start = match.index;
    parts.push(json.slice(last, start));
    if (string !== undefined) {
      parts.push(
        <span key={start} className={colon ? "text-accent-300" : "text-zinc-100"}>
          {string}
        </span>,
        colon ?? "",
      );
    } else {
      parts.push(
        <span key={start} className="text-accent-200">
          {literal ?? number}
        </span>,
      );
    }
    last = start + text.length;
  }
  parts.push(json.slice(last));
  // Punctuation takes the muted colour of the wrapper.
  return <span className="text-zinc-400">{parts}</span>;
}
