import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "@/lib/catalog";
import { API_RECORD_FIELDS, EVIDENCE_FIELDS } from "@/lib/data/records/schemas";
import { ApiError } from "./errors";
import { acceptedFields } from "./fields";
import { endpointParameters, parseDataQuery, parseEstimateQuery } from "./params";

const rating = ENDPOINTS["dilution-rating"];
const registrations = ENDPOINTS.registrations;

function parse(query: string, endpoint = rating) {
  return parseDataQuery(new URLSearchParams(query), endpoint);
}

/** The ApiError a query is refused with. */
function refusal(query: string, endpoint = rating): ApiError {
  try {
    parse(query, endpoint);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`accepted: ${query}`);
}

describe("fields", () => {
  it("is a parameter of every data endpoint", () => {
    for (const endpoint of Object.values(ENDPOINTS)) expect(endpointParameters(endpoint)).toContain("fields");
  });

  it("accepts the endpoint's record fields and the evidence field, nothing else", () => {
    for (const endpoint of Object.values(ENDPOINTS)) {
      expect(acceptedFields(endpoint)).toEqual([...API_RECORD_FIELDS[endpoint.name], EVIDENCE_FIELDS[endpoint.name]]);
    }
  });

  it("is absent unless given", () => {
    expect(parse("ticker=ZVTX").fields).toBeUndefined();
  });

  it("keeps the named fields in record order, once each, ignoring spaces around names", () => {
    expect(parse("ticker=ZVTX&fields=dilution,ticker, cash_need_desc ,dilution").fields).toEqual(["ticker", "dilution", "cash_need_desc"]);
    expect(parse("ticker=ZVTX&fields=ticker").fields).toEqual(["ticker"]);
    expect(parse("ticker=AAA&fields=is_atm,accession_number", registrations).fields).toEqual(["accession_number", "is_atm"]);
  });

  it("refuses an unknown field, naming it and the accepted ones", () => {
    const error = refusal("ticker=ZVTX&fields=ticker,colour");
    expect(error.code).toBe("invalid_parameter");
    expect(error.details).toMatchObject({ parameter: "fields" });
    expect(error.message).toContain('"colour"');
    expect(error.message).toContain(acceptedFields(rating).join(", "));
    // Another endpoint's field is unknown here.
    expect(refusal("ticker=AAA&fields=dilution", registrations).message).toContain('"dilution"');
    expect(refusal("ticker=AAA&fields=sources&include=source", registrations).message).toContain('"sources"');
  });

  it("is case-sensitive, and says so when only the case is wrong", () => {
    const error = refusal("ticker=ZVTX&fields=Ticker");
    expect(error.message).toContain('"Ticker"');
    expect(error.message).toContain("case-sensitive: ticker");
  });

  it("shortens a long unknown name", () => {
    const error = refusal(`ticker=ZVTX&fields=${"x".repeat(500)}`);
    expect(error.message).toContain(`"${"x".repeat(40)}…"`);
    expect(error.message).not.toContain("x".repeat(41));
  });

  it("refuses an empty value, an empty entry and a repeated parameter", () => {
    for (const query of ["fields=", "fields=%20", "fields=ticker,,dilution", "fields=ticker,", "fields=,ticker", "fields=ticker&fields=dilution"]) {
      const error = refusal(`ticker=ZVTX&${query}`);
      expect(error.code, query).toBe("invalid_parameter");
      expect(error.details, query).toMatchObject({ parameter: "fields" });
    }
    expect(refusal("ticker=ZVTX&fields=").message).toContain("at least one field");
    expect(refusal("ticker=ZVTX&fields=ticker,,dilution").message).toContain("empty field");
    expect(refusal("ticker=ZVTX&fields=ticker&fields=dilution").message).toContain("more than once");
  });

  it("takes the evidence field only with include=source, and include=source only with it listed", () => {
    const bare = refusal("ticker=ZVTX&fields=ticker,sources");
    expect(bare.details).toMatchObject({ parameter: "fields" });
    expect(bare.message).toContain("only returned with include=source");
    expect(refusal("ticker=AAA&fields=ticker,source", registrations).message).toContain("include=source");
    expect(parse("ticker=ZVTX&fields=sources,ticker&include=source")).toMatchObject({ includeSource: true, fields: ["ticker", "sources"] });
    expect(refusal("ticker=ZVTX&fields=ticker&include=source").message).toContain("fields leaves out");
  });

  it("is read by /estimate with the same rules, for ticker and ticker_count", () => {
    const lookup = (name: string) => (name in ENDPOINTS ? ENDPOINTS[name as keyof typeof ENDPOINTS] : undefined);
    const estimate = (query: string) => parseEstimateQuery(new URLSearchParams(query), lookup).query;
    expect(estimate("endpoint=dilution-rating&ticker=ZVTX&fields=dilution,ticker").fields).toEqual(["ticker", "dilution"]);
    expect(estimate("endpoint=dilution-rating&ticker_count=5&fields=cash_need").fields).toEqual(["cash_need"]);
    expect(() => estimate("endpoint=dilution-rating&ticker=ZVTX&fields=nope")).toThrow(/unknown field "nope"/);
    expect(() => estimate("endpoint=registrations&ticker=ZVTX&fields=sources")).toThrow(/unknown field "sources"/);
  });
});

describe("date_from and date_to", () => {
  it("take real calendar days, and refuse year 0 and days that do not exist instead of failing in the database", () => {
    expect(parse("ticker=A&date_from=2024-02-29&date_to=9999-12-31", registrations)).toMatchObject({
      dateFrom: new Date("2024-02-29T00:00:00Z"),
      dateTo: new Date("9999-12-31T00:00:00Z"),
    });
    for (const bad of ["0000-01-01", "2023-02-29", "2025-04-31", "2025-1-01"]) {
      expect(refusal(`ticker=A&date_to=${bad}`, registrations).message).toContain("date_to");
    }
  });
});

describe("as_of", () => {
  const data = ENDPOINTS["dilution-data"];
  it("is dilution-data's: the ledger as known on a day", () => {
    expect(parse("ticker=ZVTX&as_of=2025-06-30", data).knownOn).toEqual(new Date("2025-06-30T00:00:00Z"));
    expect(parse("ticker=ZVTX", data).knownOn).toBeUndefined();
  });

  it("refuses a day that does not exist, and is no parameter of the other endpoints", () => {
    expect(refusal("ticker=ZVTX&as_of=2025-02-30", data).message).toContain("as_of");
    expect(refusal("ticker=ZVTX&as_of=yesterday", data).message).toContain("YYYY-MM-DD");
    expect(refusal("ticker=ZVTX&as_of=2025-06-30", registrations).message).toContain("unknown parameter");
  });
});
