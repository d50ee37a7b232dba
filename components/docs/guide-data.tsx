import { CodeBlock } from "@/components/ui/code-block";
import { Code, DocSection, Prose } from "./doc-section";

/** Fields that are null when the filings do not state them, and why. */
const UNKNOWN_FIELDS: { endpoint: string; field: string; when: string }[] = [
  { endpoint: "registrations", field: "offering_amount", when: "The filings state no size: an automatic shelf (S-3ASR, F-3ASR) registers no maximum; older filings have no fee exhibit." },
  { endpoint: "registrations", field: "over_baby_shelf, public_float", when: "No public float was on record when the registration was filed." },
  {
    endpoint: "registrations",
    field: "atm_sold_amount, atm_sold_shares, atm_report_accession",
    when: "No periodic report since the ATM prospectus states the program's sales: amount_remaining_atm is then its size, as of the prospectus's filing day (amount_remaining_atm_as_of). All four are null for a registration that is not an ATM program.",
  },
  {
    endpoint: "registrations",
    field: "baby_shelf_capacity, baby_shelf_sold_12m",
    when: "Not an S-3/F-3 shelf or ATM program, the company's latest public float is $75M or more or unknown, or a sale of the last 12 months cannot be counted (an ATM program begun before them reports only its sales to date; a takedown states no amount). baby_shelf_public_float is null too for a figure a filing states.",
  },
  { endpoint: "offerings", field: "amount", when: "The takedown has no fee exhibit (required since 2022; older prospectus supplements state it only in their text)." },
  { endpoint: "float-outstanding", field: "float", when: "SEC filings state the public float in dollars; shares need a closing price on the float's date." },
  { endpoint: "float-outstanding", field: "price, market_cap_final", when: "No closing price is on file for that day (market_cap_final is then absent)." },
  {
    endpoint: "dilution-data",
    field: "shares_underlying",
    when: "No fixed count: a convertible whose conversion price is not fixed, or an equity line (each draw is priced at the market).",
  },
  {
    endpoint: "dilution-data",
    field: "exercise_price, conversion_price",
    when: "Not fixed or not stated; conversion_price is null for warrants and equity lines.",
  },
  {
    endpoint: "dilution-data",
    field: "principal_amount, remaining_amount",
    when: "Warrants have neither. For notes they are the principal and the principal outstanding, for preferred the stated value and what is outstanding, for equity lines the commitment and what is undrawn.",
  },
  {
    endpoint: "dilution-data",
    field: "stated_shares_underlying, stated_price, split_adjustment",
    when: "No reverse split took effect after the filing that stated the figures, so they are served as stated.",
  },
  { endpoint: "dilution-data", field: "anti_dilution", when: "No 8-K stated the instrument's price protection (prospectuses and periodic reports are not read for it)." },
  {
    endpoint: "dilution-data",
    field: "holders",
    when: "The filing that issued the instrument names no purchaser: only an 8-K's purchase agreement (and an equity line's counterparty) is read for them, never a registered offering's public buyers, a Rule 144A deal's initial purchasers (who resell at once) or a resale prospectus's selling stockholders. At most five names are listed.",
  },
  { endpoint: "dilution-data", field: "placement_agent", when: "Neither the 8-K nor the prospectus of the offering that issued it names a placement agent or underwriter." },
  { endpoint: "dilution-data", field: "xbrl_check", when: "The company tags no XBRL figure for the same day to compare with." },
  { endpoint: "dilution-rating", field: "estimated_cash, cash_burn, cash_remaining_months", when: "No financial report is on file, or it reports no operating cash flow." },
  { endpoint: "dilution-rating", field: "going_concern", when: "No periodic report on file states either way whether there is substantial doubt about the company continuing as a going concern." },
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
          exhibits, 424B prospectus supplements, periodic reports (10-Q, 10-K, 20-F, 40-F) and 8-Ks (listing notices under
          Item 3.01, financings under Items 1.01 and 3.02), usually within a day of the filing. Ratings are computed from
          those facts when you ask, and each <Code>_desc</Code> names the filing it rests on, e.g.{" "}
          <Code>S-3ASR 333-231168, effective 2019-05-02</Code>.
        </p>
        <p>
          Warrants, convertibles and equity lines are followed from the filing that issued them through the periodic reports
          after it: a dilution-data record is the instrument&apos;s latest stated state, with its <Code>as_of</Code> day and{" "}
          <Code>status</Code> (<Code>outstanding</Code>; <Code>expired</Code> once a warrant&apos;s expiration date has
          passed; <Code>exercised</Code>, <Code>converted</Code> or <Code>redeemed</Code> once a filing says it was
          exercised, converted or repaid in full, the instrument staying listed). Figures stated before a reverse split are adjusted to today&apos;s shares: a warrant for 1,000 shares at
          $4.00 reads 100 at $40.00 from the day a 1-for-10 split takes effect, with <Code>stated_shares_underlying</Code>,{" "}
          <Code>stated_price</Code> and <Code>split_adjustment</Code> beside it. A record with <Code>reported_total</Code> is
          a report&apos;s total of all warrants, which covers the warrants listed beside it that were issued by its{" "}
          <Code>as_of</Code>: count it once. Add <Code>as_of=YYYY-MM-DD</Code> to see the instruments as they were known that
          day.
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
