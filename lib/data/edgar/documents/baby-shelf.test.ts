import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readBabyShelf } from "./baby-shelf";
import { inspectText } from "./inspect";
import type { Line } from "./text";

const paragraphs = (...texts: string[]): Line[] => texts.map((text, index) => ({ index, text, cells: null }));

describe("the baby-shelf arithmetic a prospectus states (General Instruction I.B.6)", () => {
  it("reads Alzamend's ATM supplement: float, its basis, one third, sold in the prior 12 months and what is left, each quoted", () => {
    const file = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar", "Archives", "edgar", "data", "1677077", "000121465926002941", "0001214659-26-002941.txt");
    const inspection = inspectText(readFileSync(file, "utf8"));
    expect(inspection.baby_shelf).toEqual({
      public_float: 9_188_860,
      as_of: "2026-03-06",
      float_shares: 3_781_424,
      float_price: 2.43,
      float_price_date: "2026-01-21",
      one_third_limit: 3_062_953,
      sold_prior_12_months: 1_020,
      remaining: 3_061_933,
    });
    expect(inspection.evidence["baby_shelf.remaining"]).toContain("leaving $3,061,933");
    expect(inspection.evidence["baby_shelf.sold_prior_12_months"]).toContain("$1,020");
    expect(inspection.evidence["baby_shelf.one_third_limit"]).toContain("$3,062,953");
  });

  it("takes the float's shares from those held by non-affiliates, not all outstanding, with the price after them; 'eligible to sell up to' as what is left; a twelve-month period with nothing sold", () => {
    const reading = readBabyShelf(
      paragraphs(
        "The aggregate market value of our outstanding common stock held by non-affiliates is approximately $31.2 million, based on 10,450,000 shares of outstanding common stock, of which 6,120,400 shares are held by non-affiliates, and a per share price of $5.10 based on the closing sale price of our common stock on March 3, 2025. As a result, pursuant to General Instruction I.B.6 of Form S-3, we are currently eligible to offer and sell up to an aggregate of approximately $10.4 million of our securities. In no event will the aggregate market value of securities sold by us pursuant to General Instruction I.B.6 exceed one-third of the aggregate market value of our common stock held by non-affiliates. During the twelve-month period that ends on and includes the date of this prospectus supplement, we have not sold any shares of securities pursuant to General Instruction I.B.6 of Form S-3.",
      ),
    );
    expect(reading.baby_shelf).toMatchObject({ public_float: 31_200_000, float_shares: 6_120_400, float_price: 5.1, float_price_date: "2025-03-03", sold_prior_12_months: 0, remaining: 10_400_000, one_third_limit: null });
    const ofWhich = readBabyShelf(
      paragraphs(
        "As of March 14, 2025, the aggregate market value of our common stock held by non-affiliates, or our public float, was approximately $3.9 million based on a total number of 1,288,000 shares of common stock outstanding, of which 1,270,500 shares of common stock were held by non-affiliates, and a price of $3.07 per share, the closing price of our common stock on March 14, 2025. Pursuant to General Instruction I.B.6. of Form S-3, in no event will we sell securities with a value exceeding more than one-third of our public float in any 12-month calendar period.",
      ),
    );
    expect(ofWhich.baby_shelf).toMatchObject({ as_of: "2025-03-14", float_shares: 1_270_500, float_price: 3.07, float_price_date: "2025-03-14" });
  });

  it("reads Imunon's base prospectus (recited in its 2025 supplement) with its own older day, and no figure it does not state", () => {
    const file = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar", "Archives", "edgar", "data", "749647", "000149315225029712", "0001493152-25-029712.txt");
    const inspection = inspectText(readFileSync(file, "utf8"));
    expect(inspection.baby_shelf).toEqual({
      public_float: 18_075_494,
      as_of: "2024-05-10",
      float_shares: 9_365_541,
      float_price: 1.93,
      float_price_date: "2024-04-01",
      one_third_limit: null,
      sold_prior_12_months: 334_659,
      remaining: null,
    });
    expect(inspection.evidence["baby_shelf.public_float"]).toContain("$18,075,494");
  });

  it("reads 'have not offered or sold' as nothing sold, and never takes the $75 million threshold for a figure", () => {
    const { baby_shelf } = readBabyShelf(
      paragraphs(
        "The aggregate market value of our outstanding common equity held by non-affiliates was approximately $24.6 million, based on 8,200,000 shares of outstanding common stock held by non-affiliates and a price of $3.00 per share, the closing price of our common stock on April 1, 2025.",
        "Pursuant to General Instruction I.B.6 of Form S-3, in no event will we sell securities in a public primary offering with a value exceeding more than one-third of our public float in any 12-month period so long as our public float remains below $75.0 million. We have not offered or sold any securities pursuant to General Instruction I.B.6 of Form S-3 during the prior 12 calendar month period that ends on and includes the date of this prospectus.",
      ),
    );
    expect(baby_shelf).toMatchObject({ public_float: 24_600_000, float_shares: 8_200_000, float_price: 3, float_price_date: "2025-04-01", as_of: "2025-04-01", one_third_limit: null, sold_prior_12_months: 0, remaining: null });
  });

  it("reads nothing from a document that does not name the instruction", () => {
    expect(readBabyShelf(paragraphs("The aggregate market value of our common stock held by non-affiliates was $1.2 billion.")).baby_shelf).toBeNull();
  });
});
