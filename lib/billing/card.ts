/** A saved card as people read it: "Visa •••• 4242", "expires 12/2030". */

const BRANDS: Record<string, string> = {
  amex: "American Express",
  diners: "Diners Club",
  discover: "Discover",
  eftpos_au: "eftpos",
  jcb: "JCB",
  mastercard: "Mastercard",
  unionpay: "UnionPay",
  visa: "Visa",
};

export function cardLabel(brand: string | null, last4: string | null): string {
  const name = brand ? (BRANDS[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1)) : "Card";
  return last4 ? `${name} •••• ${last4}` : name;
}

export function cardExpiry(month: number | null, year: number | null): string | null {
  return month && year ? `${String(month).padStart(2, "0")}/${year}` : null;
}
