/**
 * A JSON import file read as a stream of bytes with @streamparser/json (a
 * well-kept, dependency-free streaming tokenizer and parser): the records are
 * the elements of the root object's arrays, handed on one by one with the line
 * each starts on, so a file of any size is never held whole. A syntax error
 * is reported with its line and column and ends the reading.
 */
import { TokenParser, Tokenizer, TokenType, type ParsedElementInfo, type ParsedTokenInfo } from "@streamparser/json";

/** The longest record, in bytes: a longer one ends the reading with an error. */
export const MAX_JSON_RECORD_BYTES = 1024 * 1024;

export type JsonEvent =
  /** A key of the root object, where it stands and what its value is (arrays' elements follow as "element"). */
  | { type: "key"; key: string; line: number; value: "array" | "object" | "primitive"; primitive?: unknown }
  /** An element of the array under a root key. */
  | { type: "element"; key: string; index: number; line: number; value: unknown }
  /** The root is not an object. */
  | { type: "not-object"; line: number }
  /** The text is not JSON (or a record is too long); nothing after it is read. */
  | { type: "error"; line: number; column: number; message: string };

type Container = { kind: "object" | "array"; count: number };

class JsonSyntaxError extends Error {
  constructor(readonly offset: number, message: string) {
    super(message);
  }
}

/** What the token parser's state at an unexpected token means, in words. */
function unexpected(state: string, token: TokenType, inside: Container | undefined): string {
  switch (state) {
    case "VALUE":
      return token === TokenType.RIGHT_BRACKET ? "trailing comma before ']'" : "expected a value";
    case "KEY":
      return token === TokenType.RIGHT_BRACE ? "trailing comma before '}'" : "expected a property name in double quotes";
    case "COLON":
      return "expected ':' after a property name";
    case "COMMA":
      return inside?.kind === "array" ? "expected ',' or ']' after an array element" : "expected ',' or '}' after a property value";
    case "ENDED":
      return "unexpected text after the end of the JSON value";
    default:
      return "unexpected token";
  }
}

/**
 * Reads one JSON text from its chunks and calls `on` for the root's keys and
 * the elements of its arrays (under the keys `wanted` accepts), in order.
 * Events are delivered per chunk so the caller may wait between chunks.
 */
export async function readJson(
  chunks: AsyncIterable<Uint8Array>,
  wanted: (key: string) => boolean,
  on: (events: JsonEvent[]) => Promise<void>,
): Promise<void> {
  const events: JsonEvent[] = [];
  // Where a byte offset is: the line and the offset after the last line break, counted up to `counted`.
  let chunk: Uint8Array = new Uint8Array(0);
  let chunkStart = 0;
  let counted = 0;
  let line = 1;
  let lineStart = 0;
  const lineAt = (offset: number): number => {
    const end = Math.min(offset, chunkStart + chunk.length);
    for (let at = Math.max(counted, chunkStart); at < end; at++) {
      if (chunk[at - chunkStart] === 10) {
        line++;
        lineStart = at + 1;
      }
    }
    counted = Math.max(counted, end);
    return line;
  };
  const columnAt = (offset: number) => offset - lineStart + 1;

  const stack: Container[] = [];
  let rootKey: string | null = null;
  let expectKey = false;
  let element: { key: string; index: number; line: number; start: number } | null = null;

  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: ["$.*.*"], keepStack: false });
  parser.onValue = ({ value, stack: path }: ParsedElementInfo) => {
    if (path.length !== 2 || !element) return;
    events.push({ type: "element", key: element.key, index: element.index, line: element.line, value });
    element = null;
  };

  tokenizer.onToken = (info: ParsedTokenInfo) => {
    const { token, offset } = info;
    const depth = stack.length;
    const inside = stack[depth - 1];
    const opens = token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET;
    const closes = token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET;
    const isValue = opens || (!closes && token !== TokenType.COLON && token !== TokenType.COMMA);

    if (depth === 0 && isValue && !opens) events.push({ type: "not-object", line: lineAt(offset) });
    if (depth === 0 && token === TokenType.LEFT_BRACKET) events.push({ type: "not-object", line: lineAt(offset) });
    if (depth === 1 && inside?.kind === "object") {
      if (token === TokenType.STRING && expectKey) {
        rootKey = info.value as string;
        expectKey = false;
      } else if (isValue && rootKey !== null) {
        const value = token === TokenType.LEFT_BRACKET ? "array" : token === TokenType.LEFT_BRACE ? "object" : "primitive";
        events.push({ type: "key", key: rootKey, line: lineAt(offset), value, ...(value === "primitive" ? { primitive: info.value } : {}) });
      }
    }
    if (depth === 2 && inside?.kind === "array" && rootKey !== null && isValue && wanted(rootKey)) {
      element = { key: rootKey, index: inside.count, line: lineAt(offset), start: offset };
    }
    if (depth === 2 && inside?.kind === "array" && isValue) inside.count++;
    if (element && offset - element.start > MAX_JSON_RECORD_BYTES) {
      throw new JsonSyntaxError(element.start, `a record longer than ${MAX_JSON_RECORD_BYTES.toLocaleString("en-US")} bytes starts here; nothing after it was read`);
    }
    // The parser completes the element (and calls onValue) as it takes the token: the element's start is noted first.
    try {
      parser.write(info);
    } catch (error) {
      const state = /in state (\w+)/.exec((error as Error).message)?.[1] ?? "";
      throw new JsonSyntaxError(offset, unexpected(state, token, inside));
    }

    if (opens) stack.push({ kind: token === TokenType.LEFT_BRACE ? "object" : "array", count: 0 });
    if (closes) stack.pop();
    if (stack.length === 1 && stack[0]!.kind === "object" && (token === TokenType.LEFT_BRACE || token === TokenType.COMMA)) expectKey = true;
  };

  const fail = async (offset: number, message: string) => {
    const at = lineAt(offset);
    events.push({ type: "error", line: at, column: columnAt(offset), message });
    await on(events.splice(0));
  };
  try {
    for await (const bytes of chunks) {
      chunk = bytes;
      tokenizer.write(bytes);
      lineAt(chunkStart + bytes.length); // the rest of this chunk's lines, before it is let go
      chunkStart += bytes.length;
      if (events.length) await on(events.splice(0));
    }
    chunk = new Uint8Array(0);
    tokenizer.end();
    if (!parser.isEnded) parser.end();
  } catch (error) {
    if (error instanceof JsonSyntaxError) return fail(error.offset, error.message);
    const message = (error as Error).message;
    const position = /absolute position "(\d+)"/.exec(message);
    if (position) {
      const found = /^Unexpected "(.)"/.exec(message)?.[1];
      return fail(Number(position[1]), found ? `unexpected ${JSON.stringify(found)}` : "unexpected character");
    }
    if (/ended in (the middle|mid-parsing)/.test(message)) return fail(chunkStart, "unexpected end of file");
    throw error;
  }
  if (events.length) await on(events.splice(0));
}
