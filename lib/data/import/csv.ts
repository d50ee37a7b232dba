export interface CsvRecord {
  /** Physical line where the record starts (1-based). */
  line: number;
  fields: string[];
  /** Malformed quoting, by 0-based column. */
  problems: { column: number; message: string }[];
}

/**
 * RFC 4180 CSV: comma-separated, CRLF or LF (or CR) line ends, fields in
 * double quotes may hold commas, quotes (doubled) and line breaks. A final
 * line end is optional; completely empty lines are skipped.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const record: CsvRecord = { line, fields: [], problems: [] };
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
      record.fields.push(field);
      if (i < n && text[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    // The line end (CRLF, LF or CR).
    if (text[i] === "\r") i++;
    if (text[i] === "\n") i++;
    line++;
    const blank = record.fields.length === 1 && record.fields[0] === "" && record.problems.length === 0;
    if (!blank) records.push(record);
  }
  return records;
}
