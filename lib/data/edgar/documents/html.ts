import { Parser } from "htmlparser2";

/**
 * An HTML (or inline XBRL) document as the reader sees it: what a person sees
 * on the page, in order, as text blocks and tables whose rows keep their
 * cells. Built in one streaming pass of htmlparser2 (no DOM is held, so a
 * 50 MB filing costs its text, not a tree of millions of nodes).
 *
 * Hidden content is left out: `<head>`, scripts, styles, the inline-XBRL
 * header (`ix:header`, its contexts and hidden facts) and anything styled
 * `display:none`. Zero-width characters and soft hyphens vanish, no-break
 * spaces become spaces, whitespace is collapsed.
 */
export interface TextBlock {
  kind: "text";
  text: string;
}

export interface TableBlock {
  kind: "table";
  /** Rows with at least one non-empty cell; each cell's text as shown (a cell may be ""). */
  rows: string[][];
}

export type Block = TextBlock | TableBlock;

/** Tags whose start or end begins a new line of text on the page. */
const BLOCK_TAGS = new Set([
  "p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "center", "hr", "pre",
  "blockquote", "section", "article", "dl", "dt", "dd", "body", "html", "title", "header", "footer", "page", "caption",
]);

/** Never shown. `ix:header` holds an inline-XBRL document's contexts and hidden facts. */
const HIDDEN_TAGS = new Set(["head", "script", "style", "ix:header", "noscript", "template", "xml"]);

const INVISIBLE_CHARACTERS = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;
const SPACES = /[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+/g;

/** Text as shown: invisible characters removed, every run of spaces one space, trimmed. */
export function cleanText(text: string): string {
  return text.replace(INVISIBLE_CHARACTERS, "").replace(SPACES, " ").trim();
}

function isHiddenByStyle(style: string | undefined): boolean {
  return style !== undefined && /display\s*:\s*none/i.test(style);
}

/**
 * Real filings nest elements a few dozen deep. Far deeper nesting (a file of
 * millions of unclosed tables) is refused: the parser's cost would grow with
 * the square of the depth.
 */
export const MAX_ELEMENT_DEPTH = 400;

export class DocumentShapeError extends Error {}

interface TableState {
  rows: string[][];
  row: string[] | null;
  cell: string[] | null;
}

/** The blocks of an HTML document; never throws on malformed markup. */
export function htmlBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  const hiddenStack: boolean[] = [];
  let hiddenDepth = 0;
  let paragraph: string[] = [];
  const tables: TableState[] = [];

  const flushParagraph = () => {
    if (paragraph.length === 0) return;
    const text = cleanText(paragraph.join(""));
    paragraph = [];
    if (text) blocks.push({ kind: "text", text });
  };
  const table = () => tables[tables.length - 1];
  /** Text goes to the innermost open cell of the outermost table (nested tables read as their cell's text), else to the paragraph. */
  const sink = (): string[] => {
    const outer = tables[0];
    if (outer) {
      if (!outer.row) outer.row = [];
      if (!outer.cell) outer.cell = [];
      return outer.cell;
    }
    return paragraph;
  };
  const endCell = (state: TableState) => {
    if (state.cell) {
      if (!state.row) state.row = [];
      state.row.push(cleanText(state.cell.join("")));
    }
    state.cell = null;
  };
  const endRow = (state: TableState) => {
    endCell(state);
    if (state.row && state.row.some((c) => c !== "")) state.rows.push(state.row);
    state.row = null;
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const hidden = HIDDEN_TAGS.has(name) || isHiddenByStyle(attributes.style);
        hiddenStack.push(hidden);
        if (hiddenStack.length > MAX_ELEMENT_DEPTH) throw new DocumentShapeError(`elements nested more than ${MAX_ELEMENT_DEPTH} deep (no filing is)`);
        if (hidden) hiddenDepth++;
        if (hiddenDepth > 0) return;
        if (name === "table") {
          if (tables.length === 0) flushParagraph();
          tables.push({ rows: [], row: null, cell: null });
          return;
        }
        const state = table();
        if (state && tables.length === 1) {
          if (name === "tr") endRow(state);
          else if (name === "td" || name === "th") {
            endCell(state);
            if (!state.row) state.row = [];
            state.cell = [];
          } else if (BLOCK_TAGS.has(name)) sink().push(" ");
        } else if (state) {
          // inside a nested table: its cells and rows are separated by spaces in the outer cell
          if (name === "td" || name === "th" || name === "tr" || BLOCK_TAGS.has(name)) sink().push(" ");
        } else if (BLOCK_TAGS.has(name)) flushParagraph();
      },
      onclosetag(name) {
        const hidden = hiddenStack.pop() ?? false;
        if (hidden) {
          hiddenDepth--;
          return;
        }
        if (hiddenDepth > 0) return;
        if (name === "table") {
          const state = tables.pop();
          if (!state) return;
          if (tables.length === 0) {
            endRow(state);
            if (state.rows.length) blocks.push({ kind: "table", rows: state.rows });
          } else sink().push(" ");
          return;
        }
        const state = table();
        if (state && tables.length === 1) {
          if (name === "tr") endRow(state);
          else if (name === "td" || name === "th") endCell(state);
          else if (BLOCK_TAGS.has(name)) sink().push(" ");
        } else if (state) {
          if (name === "td" || name === "th" || name === "tr" || BLOCK_TAGS.has(name)) sink().push(" ");
        } else if (BLOCK_TAGS.has(name)) flushParagraph();
      },
      ontext(text) {
        if (hiddenDepth > 0) return;
        sink().push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  while (tables.length) {
    const state = tables.pop()!;
    if (tables.length === 0) {
      endRow(state);
      if (state.rows.length) blocks.push({ kind: "table", rows: state.rows });
    }
  }
  flushParagraph();
  return blocks;
}

/** Plain text (a `.txt` exhibit): paragraphs are separated by blank lines. */
export function plainTextBlocks(text: string): Block[] {
  return text
    .split(/\n\s*\n/)
    .map((part) => cleanText(part))
    .filter(Boolean)
    .map((part) => ({ kind: "text", text: part }) as const);
}

/** A table row as one line: its non-empty cells joined with single spaces (how quotes from tables are written). */
export function rowText(row: string[]): string {
  return row.filter((cell) => cell !== "").join(" ");
}

/** The visible text of blocks, one line per paragraph or table row. */
export function blocksText(blocks: Block[]): string {
  const lines: string[] = [];
  for (const block of blocks) {
    if (block.kind === "text") lines.push(block.text);
    else for (const row of block.rows) lines.push(rowText(row));
  }
  return lines.join("\n");
}

/** One inline-XBRL fact (`ix:nonFraction` / `ix:nonNumeric`), hidden or shown, with the attributes that say how to read it. */
export interface InlineFact {
  name: string;
  contextRef: string | null;
  text: string;
  scale: number;
  format: string | null;
  sign: string | null;
  nil: boolean;
}

/** Every inline-XBRL fact whose name starts with one of the prefixes (e.g. "dei:", "ffd:"). */
export function inlineFacts(html: string, prefixes: string[]): InlineFact[] {
  const facts: InlineFact[] = [];
  const open: { fact: InlineFact; parts: string[]; depth: number }[] = [];
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        depth++;
        if (name !== "ix:nonfraction" && name !== "ix:nonnumeric") return;
        const factName = attributes.name ?? "";
        if (!prefixes.some((p) => factName.toLowerCase().startsWith(p.toLowerCase()))) return;
        open.push({
          depth,
          parts: [],
          fact: {
            name: factName,
            contextRef: attributes.contextref ?? null,
            text: "",
            scale: Number(attributes.scale ?? "0") || 0,
            format: attributes.format ?? null,
            sign: attributes.sign ?? null,
            nil: /^true$/i.test(attributes["xsi:nil"] ?? ""),
          },
        });
      },
      onclosetag() {
        const top = open[open.length - 1];
        if (top && top.depth === depth) {
          open.pop();
          top.fact.text = cleanText(top.parts.join(""));
          facts.push(top.fact);
        }
        depth--;
      },
      ontext(text) {
        for (const entry of open) entry.parts.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return facts;
}
