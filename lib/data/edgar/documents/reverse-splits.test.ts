import { describe, expect, it } from "vitest";
import { htmlToText } from "./plain-text";
import { readAnnouncedReverseSplits, readReverseSplitsInText, wordNumber } from "./reverse-splits";

const splits = (text: string, issuer: string | null = null) => readReverseSplitsInText(text, issuer).map(({ ratio, effective_date }) => ({ ratio, effective_date }));

describe("reverse splits stated as effected", () => {
  it("reads a split with its effective date after the ratio, quoting both", () => {
    const text = "On October 30, 2023, we filed an amendment to our charter for a 1-for-15 reverse stock split of our common stock, effective October 31, 2023.";
    const [split] = readReverseSplitsInText(text);
    expect(split).toMatchObject({ ratio: "1-for-15", effective_date: "2023-10-31" });
    expect(split!.ratioQuote).toBe(text);
    expect(split!.dateQuote).toBe(text);
  });

  it("reads the date that opens the sentence", () => {
    expect(splits("On July 16, 2024, we effected a 1-for-10 reverse stock split of our outstanding common stock.")).toEqual([{ ratio: "1-for-10", effective_date: "2024-07-16" }]);
  });

  it("reads spelled-out ratios, with or without the digits beside them", () => {
    expect(splits("On May 6, 2025, we effected a one-for-nine (1:9) reverse split of our common stock.")).toEqual([{ ratio: "1-for-9", effective_date: "2025-05-06" }]);
    expect(splits("The Company completed a one-for-twenty reverse stock split on March 3, 2025.")).toEqual([{ ratio: "1-for-20", effective_date: "2025-03-03" }]);
    expect(splits("Effective as of June 2, 2025, the Company effected a one (1)-for-twenty-five (25) reverse stock split.")).toEqual([{ ratio: "1-for-25", effective_date: "2025-06-02" }]);
  });

  it("reads a ratio written with a colon, and a date that became effective after other dates", () => {
    expect(splits("On April 28, 2025, our board approved a reverse stock split at a ratio of 1-for-9, which became effective on May 6, 2025.")).toEqual([
      { ratio: "1-for-9", effective_date: "2025-05-06" },
    ]);
    expect(splits("We effected a 1:10 reverse split of our common stock on July 16, 2024.")).toEqual([{ ratio: "1-for-10", effective_date: "2024-07-16" }]);
  });

  it("reads several splits in one sentence, each with its own date", () => {
    const expected = [
      { ratio: "1-for-15", effective_date: "2023-10-31" },
      { ratio: "1-for-10", effective_date: "2024-07-16" },
      { ratio: "1-for-9", effective_date: "2025-05-06" },
    ];
    expect(splits("We have effected three reverse stock splits: 1-for-15 on October 31, 2023, 1-for-10 on July 16, 2024 and 1-for-9 on May 6, 2025.")).toEqual(expected);
    expect(
      splits(
        "All share and per share amounts have been retroactively adjusted to reflect the (i) 1-for-15 reverse split of the Company’s common stock effective October 31, 2023, (ii) 1-for-10 reverse split of the Company’s common stock effective July 16, 2024 and (iii) 1-for-9 reverse split of the Company’s common stock effective May 6, 2025.",
        "Example Neuro, Inc.",
      ),
    ).toEqual(expected);
  });

  it("tells the same split once when a document tells it twice", () => {
    const text = [
      "On July 16, 2024, we effected a 1-for-10 reverse stock split of our common stock.",
      "",
      "All share amounts reflect the 1-for-10 reverse stock split effected on July 16, 2024.",
      "",
      "As a result of the 1-for-10 reverse stock split that was effected, every ten shares were combined into one share.",
    ].join("\n");
    expect(splits(text)).toEqual([{ ratio: "1-for-10", effective_date: "2024-07-16" }]);
  });

  it("takes the day the sentence says the split took effect over the filing day that opens it, and 'each 200 shares … was converted into one share' as 1-for-200", () => {
    expect(
      splits("On January 13, 2023, the Company filed a Certificate of Change with the Secretary of State of the State of Nevada, which effected, at 5:00 p.m. Eastern Time on January 17, 2023, a one-for-two-hundred (1:200) reverse stock split of the Company’s common stock."),
    ).toEqual([{ ratio: "1-for-200", effective_date: "2023-01-17" }]);
    expect(splits("Pursuant to the Amendment, each 200 shares of the Company’s common stock outstanding was converted into one share of common stock of the Company (the “Reverse Stock Split”).")).toEqual([{ ratio: "1-for-200", effective_date: null }]);
  });

  it("gives a split read without a day the day another sentence of the 8-K says it takes effect", () => {
    const text =
      "The Company filed the Amendment effectuating the Reverse Stock Split on November 20, 2024. The Reverse Stock Split will become effective in the State of Delaware at 11:59 PM ET on Friday, November 22, 2024.\n\nAs a result of the Reverse Stock Split, each thirty-five shares of Common Stock issued and outstanding prior to the Reverse Stock Split were converted into one (1) share of Common Stock.";
    expect(readAnnouncedReverseSplits(text).map(({ ratio, effective_date }) => ({ ratio, effective_date }))).toEqual([{ ratio: "1-for-35", effective_date: "2024-11-22" }]);
  });

  it("reads a ratio that is not a whole number as written", () => {
    expect(splits("On August 9, 2022, we filed a Certificate of Amendment, which effectuated a 1-for-7.5 (1:7.5) reverse stock split of our common stock.")).toEqual([
      { ratio: "1-for-7.5", effective_date: "2022-08-09" },
    ]);
  });

  it("gives a null date when the text states none", () => {
    expect(splits("All share amounts have been adjusted to reflect the 1-for-8 reverse stock split we effected last year.")).toEqual([{ ratio: "1-for-8", effective_date: null }]);
  });

  it("keeps the split effected after a range the stockholders authorized", () => {
    expect(
      splits("On May 1, 2025, our stockholders approved a reverse split at a ratio of between 1-for-5 and 1-for-20, and on May 6, 2025 the board effected a 1-for-12 reverse split."),
    ).toEqual([{ ratio: "1-for-12", effective_date: "2025-05-06" }]);
  });
});

describe("what is not a reverse split that took place", () => {
  it("a split only authorized", () => {
    expect(splits("On May 20, 2025, the stockholders approved a proposal to authorize the Board to effect a reverse stock split at a ratio of up to 1-for-50.")).toEqual([]);
    expect(splits("Our stockholders authorized a reverse stock split of our common stock at a ratio in the range of 1-for-2 to 1-for-30.")).toEqual([]);
  });

  it("a split that may be effected, or is intended", () => {
    expect(splits("We may effect a 1-for-10 reverse stock split of our common stock, effective no later than June 30, 2025, to regain compliance.")).toEqual([]);
    expect(splits("The Board intends to effect a 1-for-20 reverse stock split, effective on or about August 1, 2025.")).toEqual([]);
    expect(splits("If implemented, the 1-for-10 reverse stock split would become effective on September 1, 2025.")).toEqual([]);
  });

  it("a split an offering's figures assume, to be effected with the offering", () => {
    expect(splits("The share numbers in this prospectus give effect to a 1-for-10 reverse stock split of our common stock to be effected prior to the closing of this offering.")).toEqual([]);
    expect(splits("On a pro forma basis, after giving effect to the 1-for-4 reverse stock split effective upon the pricing of this offering, we would have had 2,000,000 shares outstanding.")).toEqual([]);
  });

  it("a registration statement's effective date is not the split's", () => {
    expect(splits("On July 16, 2024, we effected a 1-for-10 reverse stock split, and our registration statement was declared effective on August 1, 2024.")).toEqual([{ ratio: "1-for-10", effective_date: "2024-07-16" }]);
  });

  it("a forward split", () => {
    expect(splits("On June 10, 2024, the Company effected a 2-for-1 stock split of its common stock.")).toEqual([]);
    expect(splits("Each share was exchanged on a one-for-one basis in the combination effective January 2, 2024.")).toEqual([]);
  });

  it("another company's split", () => {
    expect(splits("On March 1, 2024, Acme Holdings Corp., our largest customer, effected a 1-for-20 reverse stock split of its common stock.", "Example Therapeutics, Inc.")).toEqual([]);
    expect(splits("The 1-for-20 reverse split of Acme's common stock became effective on March 1, 2024.", "Example Therapeutics, Inc.")).toEqual([]);
    expect(splits("On March 1, 2024, Example Therapeutics, Inc. effected a 1-for-20 reverse stock split of its common stock.", "Example Therapeutics, Inc.")).toEqual([
      { ratio: "1-for-20", effective_date: "2024-03-01" },
    ]);
  });

  it("a time of day is not a ratio", () => {
    expect(splits("The reverse stock split became effective at 1:30 p.m. Eastern Time on May 6, 2025.")).toEqual([]);
  });
});

describe("numbers written out", () => {
  it("reads them as numbers", () => {
    expect([wordNumber("nine"), wordNumber("fifteen"), wordNumber("twenty-five"), wordNumber("one hundred"), wordNumber("two hundred fifty"), wordNumber("1,000")]).toEqual([
      9, 15, 25, 100, 250, 1000,
    ]);
    expect(wordNumber("several")).toBeNull();
  });
});

describe("8-K announcements", () => {
  const item503 = (ratio: string, when: string, company = "Example Neuro, Inc.") =>
    htmlToText(
      `<p><b>Item 5.03 Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year.</b></p>` +
        `<p>On May 2, 2025, ${company} (the &#8220;Company&#8221;) filed a Certificate of Amendment to its Certificate of Incorporation with the Secretary of State of the State of Delaware to effect a ${ratio} reverse stock split (the &#8220;Reverse Stock Split&#8221;) of the Company&#8217;s issued and outstanding shares of common stock, par value $0.0001 per share.</p>` +
        `<p>${when}</p>` +
        `<p>As a result of the Reverse Stock Split, every nine shares of common stock issued and outstanding will be automatically combined into one share of common stock. No fractional shares will be issued.</p>` +
        `<p><b>Item 9.01 Financial Statements and Exhibits.</b></p>`,
    );
  const announced = (text: string, issuer: string | null = "Example Neuro, Inc.") => readAnnouncedReverseSplits(text, issuer).map(({ ratio, effective_date }) => ({ ratio, effective_date }));

  it("takes the ratio from the amendment's sentence and the effective date stated in advance from the next", () => {
    const [split, ...rest] = readAnnouncedReverseSplits(item503("one-for-nine (1:9)", "The Reverse Stock Split will become effective at 12:01 a.m. Eastern Time on May 6, 2025."), "Example Neuro, Inc.");
    expect(rest).toEqual([]);
    expect(split).toMatchObject({ ratio: "1-for-9", effective_date: "2025-05-06" });
    expect(split!.ratioQuote).toContain("to effect a one-for-nine (1:9) reverse stock split");
    expect(split!.dateQuote).toBe("The Reverse Stock Split will become effective at 12:01 a.m. Eastern Time on May 6, 2025.");
    const withoutIssuer = item503("1-for-9", "The Reverse Stock Split will become effective on May 6, 2025.").replace("of the Company&#8217;s issued", "of its issued").replace("of the Company’s issued", "of its issued");
    expect(announced(withoutIssuer, null)).toEqual([{ ratio: "1-for-9", effective_date: "2025-05-06" }]);
    expect(announced(item503("1-for-9", "The Certificate of Amendment is expected to become effective as of 4:01 p.m. Eastern Time on May 6, 2025."))).toEqual([{ ratio: "1-for-9", effective_date: "2025-05-06" }]);
  });

  it("reads a split the 8-K states as effected in one sentence", () => {
    const text = htmlToText("<p>Item 8.01 Other Events.</p><p>On July 16, 2024, the Company effected a 1-for-10 reverse stock split of its common stock. The common stock began trading on a split-adjusted basis on July 17, 2024.</p>");
    expect(announced(text)).toEqual([{ ratio: "1-for-10", effective_date: "2024-07-16" }]);
  });

  it("reads nothing from a vote on a range, a split that may be effected, or another company's", () => {
    const vote = htmlToText(
      "<p>Item 5.07 Submission of Matters to a Vote of Security Holders.</p><p>At the Special Meeting, the stockholders approved an amendment to authorize the Board to effect a reverse stock split at a ratio in the range of 1-for-5 to 1-for-30, with the exact ratio to be determined by the Board. The amendment will become effective upon filing on a date the Board determines, if at all, before June 1, 2026.</p>",
    );
    expect(announced(vote)).toEqual([]);
    const maybe = item503("1-for-10", "If the Board decides to proceed, the Reverse Stock Split would become effective on June 1, 2025.").replace("filed a Certificate", "may file a Certificate");
    expect(announced(maybe)).toEqual([]);
    const investee = htmlToText(
      "<p>Item 8.01 Other Events.</p><p>On May 2, 2025, Acme Holdings Corp., in which the Company holds a 30% interest, filed a Certificate of Amendment to effect a 1-for-20 reverse stock split of its issued and outstanding common stock. The reverse stock split will become effective on May 6, 2025.</p>",
    );
    expect(announced(investee)).toEqual([]);
  });

  it("gives no date to either of two ratios when the effective date could be either's", () => {
    const two = item503("1-for-9", "The Reverse Stock Split will become effective on May 6, 2025. The Company's 1-for-10 reverse split announced earlier was abandoned.");
    expect(announced(two)).toEqual([]);
  });

  it("without an effective date, an amendment's split is not announced as effective", () => {
    expect(announced(item503("1-for-9", "The Company will issue a press release in due course."))).toEqual([]);
  });
});
