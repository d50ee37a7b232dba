export interface CsvRecord {
  /** Physical line where the record starts (1-based). */
  line: number;
  fields: string[];
  /** Malformed quoting, by 0-based column. */
  problems: { column: number; message: string }[];
  /** The record had more than MAX_CSV_FIELDS fields (the rest were not kept). */
  overflow?: true;
}

/** The most fields a record keeps (no kind has 40 columns): a record with more is marked `overflow`. */
export const MAX_CSV_FIELDS = 1_000;
/** The longest record, in characters (quoted line breaks included): a longer one ends the reading with an error. */
export const MAX_CSV_RECORD_CHARS = 1024 * 1024;

export class CsvRecordTooLong extends Error {
  constructor(readonly line: number) {
    super(
      `a record longer than ${MAX_CSV_RECORD_CHARS.toLocaleString("en-US")} characters starts here (a quote that never closes makes the rest of the file one field); nothing after it was read`,
    );
  }
}

/**
 * RFC 4180 CSV, read as it arrives: comma-separated, CRLF or LF (or CR) line
 * ends, fields in double quotes may hold commas, quotes (doubled) and line
 * breaks. A final line end is optional; completely empty lines are skipped.
 *
 *   const reader = new CsvReader();
 *   for (const text of chunks) handle(reader.push(text));
 *   handle(reader.end());
 *
 * Written here rather than taken from csv-parse: with errors skipped,
 * csv-parse drops the rows after a bad closing quote and gives a multi-line
 * record the line where it ends; an import reports every bad row by the line
 * it starts on. Memory is bounded: at most one record (MAX_CSV_RECORD_CHARS)
 * is held between chunks.
 */
export class CsvReader {
  private carry = "";
  private line = 1;

  /** The records completed by this text (a record cut by the chunk's end waits for the next). */
  push(text: string): CsvRecord[] {
    return this.read(this.carry + text, false);
  }

  /** The last record, when the text did not end with a line end. */
  end(): CsvRecord[] {
    return this.read(this.carry, true);
  }

  private read(text: string, final: boolean): CsvRecord[] {
    const records: CsvRecord[] = [];
    const n = text.length;
    let i = 0;
    let line = this.line;
    let recordStart = 0;
    let recordLine = line;
    reading: while (i < n) {
      recordStart = i;
      recordLine = line;
      const record: CsvRecord = { line, fields: [], problems: [] };
      const keep = (field: string) => {
        if (record.fields.length < MAX_CSV_FIELDS) record.fields.push(field);
        else record.overflow = true;
      };
      // One record: fields until an unquoted line end or the end of the text.
      for (;;) {
        let field = "";
        if (text[i] === '"') {
          const openedOn = line;
          i++;
          let closed = false;
          while (i < n) {
            const c = text[i]!;
            if (c === '"') {
              if (i + 1 >= n && !final) break reading; // a doubled quote may be cut by the chunk
              if (text[i + 1] === '"') {
                field += '"';
                i += 2;
                continue;
              }
              i++;
              closed = true;
              break;
            }
            if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) line++;
            field += c;
            i++;
          }
          if (!closed) {
            if (!final) break reading;
            record.problems.push({ column: record.fields.length, message: `unterminated quoted field (the quote opened on line ${openedOn} never closes)` });
          } else if (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") {
            record.problems.push({ column: record.fields.length, message: "text after the closing quote; double a quote inside a quoted field" });
            while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") field += text[i++];
          }
        } else {
          const start = i;
          while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") i++;
          field = text.slice(start, i);
          if (field.includes('"'))
            record.problems.push({ column: record.fields.length, message: 'a quote inside an unquoted field; quote the whole field and double the quote ("")' });
        }
        keep(field);
        if (i < n && text[i] === ",") {
          i++;
          continue;
        }
        break;
      }
      // The record is complete only once its line end is seen (a CR may be the first half of a CRLF).
      if (!final && (i >= n || (text[i] === "\r" && i + 1 >= n))) break reading;
      if (text[i] === "\r") i++;
      if (text[i] === "\n") i++;
      line++;
      recordStart = i;
      recordLine = line;
      const blank = record.fields.length === 1 && record.fields[0] === "" && record.problems.length === 0;
      if (!blank) records.push(record);
    }
    if (final) {
      this.carry = "";
      this.line = line;
      return records;
    }
    this.carry = text.slice(recordStart);
    this.line = recordLine;
    if (this.carry.length > MAX_CSV_RECORD_CHARS) throw new CsvRecordTooLong(recordLine);
    return records;
  }
}

/** A whole CSV text's records (see CsvReader). */
export function parseCsv(text: string): CsvRecord[] {
  const reader = new CsvReader();
  return [...reader.push(text), ...reader.end()];
}
