import { CodeBlock } from "@/components/ui/code-block";
import { Code, DocSection, Prose } from "./doc-section";

/** Fields that are null when the filings do not state them, and why. */
const UNKNOWN_FIELDS: { endpoint: string; field: string; when: string }[] = [
  { endpoint: "registrations", field: "offering_amount", when: "The filings state no size: an automatic shelf (S-3ASR, F-3ASR) registers no maximum; older filings have no fee exhibit." },
  { endpoint: "registrations", field: "over_baby_shelf, public_float", when: "No public float was on record when the registration was filed." },
  { endpoint: "offerings", field: "amount", when: "The takedown has no fee exhibit (required since 2022; older prospectus supplements state it only in their text)." },
  { endpoint: "float-outstanding", field: "float", when: "SEC filings state the public float in dollars; shares need a closing price on the float's date." },
  { endpoint: "float-outstanding", field: "price, market_cap_final", when: "No closing price is on file for that day (market_cap_final is then absent)." },
  { endpoint: "dilution-rating", field: "estimated_cash, cash_burn, cash_remaining_months", when: "No financial report is on file, or it reports no operating cash flow." },
  { endpoint: "dilution-rating", field: "regsho", when: "No exchange threshold list covers the day." },
];

const SOURCE_EXAMPLE = `{
  "ticker": "TSLA",
  "form_type": "S-3ASR",
  "file_number": "333-231168",
  "offering_amount": null,
  …
  "source": {
    "type": "sec_filing",
    "accession_number": "0001193125-19-133592",
    "form": "S-3ASR",
    "filed_date": "2019-05-02",
    "url": "https://www.sec.gov/Archives/edgar/data/1318605/000119312519133592/0001193125-19-133592-index.htm"
  }
}`;

/** Where the data comes from, how to see a record's filing, and what null means. */
export function DataSection() {
  return (
    <DocSection id="data" title="Data and evidence">
      <Prose>
        <p>
          Records are derived from SEC EDGAR: each company&apos;s filing index, its XBRL financial facts, EFFECT notices, fee
          exhibits, 424B prospectus supplements and 8-K Item 3.01 notices, usually within a day of the filing. Ratings are
          computed from those facts when you ask, and each <Code>_desc</Code> names the filing it rests on, e.g.{" "}
          <Code>S-3ASR 333-231168, effective 2019-05-02</Code>.
        </p>
        <p>
          Add <Code>include=source</Code> to any data request (and to <Code>/estimate</Code>, to price it) to get each
          record&apos;s filing as <Code>source</Code>: accession number, form, filing date and its page on sec.gov. A rating
          lists every filing its inputs came from as <Code>sources</Code>. It is opt-in because every byte is billed. Records
          of the development sample dataset say <Code>{'"type": "sample"'}</Code>; records an operator loaded from a file without
          a filing say <Code>{'"type": "import"'}</Code>.
        </p>
      </Prose>
      <CodeBlock className="mt-4 max-w-3xl" code={SOURCE_EXAMPLE} language="json" copyLabel="Copy the example record" />
      <h3 className="mt-10 text-base font-semibold text-zinc-950">Unknown is null, never a guess</h3>
      <Prose>
        <p>
          Where a filing does not state a number, the field is <Code>null</Code>, and the rating that needed it says which
          input is unknown in its <Code>_desc</Code>. These fields can be null:
        </p>
      </Prose>
      {/* A list rather than a table: the explanations need the width a phone does not have for three columns. */}
      <ul aria-label="Fields that are null when the filings do not state them" className="mt-5 max-w-3xl divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
        {UNKNOWN_FIELDS.map((row) => (
          <li key={`${row.endpoint}:${row.field}`} className="px-4 py-3 text-sm">
            <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
              <span className="font-mono font-medium break-words text-zinc-900">{row.field}</span>
              <span className="font-mono text-xs text-zinc-500">{row.endpoint}</span>
            </p>
            <p className="mt-1 leading-6 text-zinc-700">{row.when}</p>
          </li>
        ))}
      </ul>
    </DocSection>
  );
}
