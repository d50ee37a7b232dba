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
  /** Each cell's `colspan` (1 when not given), parallel to `rows`: where a heading cell spans the cells of its column (./tables.ts). */
  spans: number[][];
}

export type Block = TextBlock | TableBlock;

/** Tags whose start or end begins a new line of text on the page. */
export const BLOCK_TAGS = new Set([
  "p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "center", "hr", "pre",
  "blockquote", "section", "article", "dl", "dt", "dd", "body", "html", "title", "header", "footer", "page", "caption",
]);

/** Never shown. `ix:header` holds an inline-XBRL document's contexts and hidden facts. */
const HIDDEN_TAGS = new Set(["head", "script", "style", "ix:header", "noscript", "template", "xml"]);

const INVISIBLE_CHARACTERS = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;
const SPACES = /[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+/g;

/** Text that is already clean: printable ASCII, single spaces inside (most of a filing's cells and runs). */
const ALREADY_CLEAN = /^(?:[\x21-\x7e]+(?: [\x21-\x7e]+)*)?$/;

/** Only spaces and invisible characters (an empty cell's "&#160;"). */
const BLANK = /^[\s\u00a0\u200b-\u200d\u2060\ufeff\u00ad]*$/;

/** Text as shown: invisible characters removed, every run of spaces one space, trimmed. */
export function cleanText(text: string): string {
  if (ALREADY_CLEAN.test(text)) return text;
  if (BLANK.test(text)) return "";
  return text.replace(INVISIBLE_CHARACTERS, "").replace(SPACES, " ").trim();
}

function isHiddenByStyle(style: string | undefined): boolean {
  return style !== undefined && (style.includes("none") || style.includes("NONE")) && /display\s*:\s*none/i.test(style);
}

/**
 * Real filings nest elements a few dozen deep. Far deeper nesting (a file of
 * millions of unclosed tables) is refused: the parser's cost would grow with
 * the square of the depth.
 */
export const MAX_ELEMENT_DEPTH = 400;

export class DocumentShapeError extends Error {}

/**
 * A place in the visible text, taken while the document is parsed (where an
 * inline-XBRL fact starts) and settled when its paragraph or table row ends:
 * the block it fell in, the row of a table, and the offset in the
 * paragraph's shown text. `block` stays -1 when the text around it was empty.
 */
export interface TextPlace {
  block: number;
  row: number | null;
  offset: number;
}

interface PendingPlace {
  place: TextPlace;
  /** how many text parts of the paragraph or cell came before it */
  parts: number;
}

interface TableState {
  rows: string[][];
  spans: number[][];
  row: string[] | null;
  rowSpans: number[];
  cell: string[] | null;
  /** the open cell's colspan */
  cellSpan?: number;
  cellPlaces: PendingPlace[];
  rowPlaces: TextPlace[];
  tablePlaces: TextPlace[];
}

/** The shown length of the text before a place: as cleanText would leave it, with the space before the place kept. */
function shownOffset(parts: string[], count: number): number {
  const before = cleanText(parts.slice(0, count).join("") + "\u0001");
  return before.length - 1;
}

/**
 * Turns the elements and text of an HTML document, fed in order by a
 * streaming parser, into blocks (see the file's comment). The inline-XBRL
 * reader feeds it from its own pass, so a filing is parsed once for both.
 */
export class BlockBuilder {
  readonly blocks: Block[] = [];
  private readonly hiddenStack: boolean[] = [];
  private hiddenDepth = 0;
  private paragraph: string[] = [];
  private paragraphPlaces: PendingPlace[] = [];
  private carried: TextPlace[] = [];
  private readonly tables: TableState[] = [];

  /** Inside something not shown (the page's head, `ix:header`, `display:none`). */
  get hidden(): boolean {
    return this.hiddenDepth > 0;
  }

  open(name: string, attributes: Record<string, string>, hiddenAnyway = false) {
    const hidden = hiddenAnyway || HIDDEN_TAGS.has(name) || isHiddenByStyle(attributes.style);
    this.hiddenStack.push(hidden);
    if (this.hiddenStack.length > MAX_ELEMENT_DEPTH) throw new DocumentShapeError(`elements nested more than ${MAX_ELEMENT_DEPTH} deep (no filing is)`);
    if (hidden) this.hiddenDepth++;
    if (this.hiddenDepth > 0) return;
    if (name === "table") {
      if (this.tables.length === 0) this.flushParagraph();
      this.tables.push({ rows: [], spans: [], row: null, rowSpans: [], cell: null, cellPlaces: [], rowPlaces: [], tablePlaces: [] });
      return;
    }
    const state = this.table();
    if (state && this.tables.length === 1) {
      if (name === "tr") this.endRow(state);
      else if (name === "td" || name === "th") {
        this.endCell(state);
        if (!state.row) state.row = [];
        state.cell = [];
        state.cellSpan = columnSpan(attributes.colspan);
      } else if (BLOCK_TAGS.has(name)) this.sink().push(" ");
    } else if (state) {
      // inside a nested table: its cells and rows are separated by spaces in the outer cell
      if (name === "td" || name === "th" || name === "tr" || BLOCK_TAGS.has(name)) this.sink().push(" ");
    } else if (BLOCK_TAGS.has(name)) this.flushParagraph();
  }

  close(name: string) {
    const hidden = this.hiddenStack.pop() ?? false;
    if (hidden) {
      this.hiddenDepth--;
      return;
    }
    if (this.hiddenDepth > 0) return;
    if (name === "table") {
      const state = this.tables.pop();
      if (!state) return;
      if (this.tables.length === 0) this.pushTable(state);
      else this.sink().push(" ");
      return;
    }
    const state = this.table();
    if (state && this.tables.length === 1) {
      if (name === "tr") this.endRow(state);
      else if (name === "td" || name === "th") this.endCell(state);
      else if (BLOCK_TAGS.has(name)) this.sink().push(" ");
    } else if (state) {
      if (name === "td" || name === "th" || name === "tr" || BLOCK_TAGS.has(name)) this.sink().push(" ");
    } else if (BLOCK_TAGS.has(name)) this.flushParagraph();
  }

  text(text: string) {
    if (this.hiddenDepth > 0) return;
    // the markup's line breaks between cells are no cell of their own (they would shift the grid's columns)
    const outer = this.tables[0];
    if (outer && !outer.cell && this.tables.length === 1 && !/\S/.test(text)) return;
    this.sink().push(text);
  }

  /** Where the next shown text goes; null inside hidden content. */
  place(): TextPlace | null {
    if (this.hiddenDepth > 0) return null;
    const place: TextPlace = { block: -1, row: null, offset: 0 };
    const outer = this.tables[0];
    if (outer) outer.cellPlaces.push({ place, parts: outer.cell?.length ?? 0 });
    else this.paragraphPlaces.push({ place, parts: this.paragraph.length });
    return place;
  }

  /** The blocks, once the whole document has been fed. */
  end(): Block[] {
    while (this.tables.length) {
      const state = this.tables.pop()!;
      if (this.tables.length === 0) this.pushTable(state);
    }
    this.flushParagraph();
    return this.blocks;
  }

  private table(): TableState | undefined {
    return this.tables[this.tables.length - 1];
  }

  /** Text goes to the innermost open cell of the outermost table (nested tables read as their cell's text), else to the paragraph. */
  private sink(): string[] {
    const outer = this.tables[0];
    if (outer) {
      if (!outer.row) outer.row = [];
      if (!outer.cell) outer.cell = [];
      return outer.cell;
    }
    return this.paragraph;
  }

  private flushParagraph() {
    const text = cleanText(this.paragraph.join(""));
    if (text) {
      this.settleCarried(0);
      for (const pending of this.paragraphPlaces) {
        pending.place.block = this.blocks.length;
        pending.place.offset = Math.min(shownOffset(this.paragraph, pending.parts), text.length);
      }
      this.blocks.push({ kind: "text", text });
    } else this.carried.push(...this.paragraphPlaces.map((p) => p.place));
    this.paragraph = [];
    this.paragraphPlaces = [];
  }

  /** Places taken where nothing was shown yet (a fact that opens before its table) fall on the next block, at its start. */
  private settleCarried(row: number | null) {
    for (const place of this.carried) {
      place.block = this.blocks.length;
      place.row = row;
      place.offset = 0;
    }
    this.carried = [];
  }

  private endCell(state: TableState) {
    if (state.cell) {
      if (!state.row) state.row = [];
      state.row.push(cleanText(state.cell.join("")));
      state.rowSpans.push(state.cellSpan ?? 1);
    }
    state.rowPlaces.push(...state.cellPlaces.map((p) => p.place));
    state.cellPlaces = [];
    state.cell = null;
    state.cellSpan = undefined;
  }

  private endRow(state: TableState) {
    this.endCell(state);
    if (state.row && state.row.some((c) => c !== "")) {
      for (const place of state.rowPlaces) place.row = state.rows.length;
      state.tablePlaces.push(...state.rowPlaces);
      state.rows.push(state.row);
      state.spans.push(state.rowSpans);
      state.rowPlaces = [];
    }
    state.row = null;
    state.rowSpans = [];
  }

  private pushTable(state: TableState) {
    this.endRow(state);
    if (!state.rows.length) {
      this.carried.push(...state.tablePlaces, ...state.rowPlaces);
      return;
    }
    this.settleCarried(0);
    for (const place of state.tablePlaces) place.block = this.blocks.length;
    this.blocks.push({ kind: "table", rows: state.rows, spans: state.spans });
  }
}

/** A `colspan` attribute as a count of columns: 1 when absent or not a sensible number. */
function columnSpan(value: string | undefined): number {
  const n = value === undefined ? 1 : Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 1000) : 1;
}

/** Options of every htmlparser2 pass over a filing. */
export const PARSER_OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true } as const;

/** The blocks of an HTML document; never throws on malformed markup. */
export function htmlBlocks(html: string): Block[] {
  const builder = new BlockBuilder();
  const parser = new Parser(
    {
      onopentag: (name, attributes) => builder.open(name, attributes),
      onclosetag: (name) => builder.close(name),
      ontext: (text) => builder.text(text),
    },
    PARSER_OPTIONS,
  );
  parser.write(html);
  parser.end();
  return builder.end();
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
