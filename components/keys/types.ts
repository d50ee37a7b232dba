/** What the keys page hands its client components: plain, formatted, no more than they show. */

export interface KeyRow {
  id: string;
  name: string;
  hint: string;
  status: "ACTIVE" | "DISABLED";
  /** Disabled by the platform, with its reason: only the platform can re-enable the key. */
  platformReason: string | null;
  /** The customer's own choice of endpoints; empty: all that the plan and the platform allow. */
  allowedEndpoints: string[];
  /** The endpoints the key may call, when fewer than the plan's: plan ∩ the platform's restriction ∩ the choice. */
  callable: string[] | null;
  /** A platform administrator's restriction, with its reason: the choice can narrow it, never widen it. */
  platformLimit: { endpoints: string[]; reason: string } | null;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** When the key stops working (its expiry, or a rolled key's grace end), formatted; null: never. */
  expiresAt: string | null;
  /** Whole days left before it does (0 on its last day); null: never. */
  daysLeft: number | null;
  expired: boolean;
  /** Rolled: a newer key replaces it. */
  rolled: boolean;
  /** The hint of the key this one replaced. */
  replaces: string | null;
  allowedIps: string[];
  /** The last day it works, as the form's date field holds it ("2027-06-30"); "" when it does not expire. */
  expiresOn: string;
  /** Caps as plain dollars for the form ("5", "0.0001"); "" for none. */
  dailyCap: string;
  monthlyCap: string;
  spentToday: string;
  spentThisMonth: string;
}

export interface EndpointOption {
  name: string;
  title: string;
}

/** A key's settings as just saved, in the form's terms. */
export type SavedSettings = Pick<KeyRow, "allowedEndpoints" | "allowedIps" | "dailyCap" | "monthlyCap" | "expiresOn">;

/** A key the settings or roll dialog is open for. */
export type Editing = { kind: "settings" | "roll"; key: KeyRow } | null;

/** A change that asks for confirmation first. */
export type Pending = { kind: "delete" | "disable" | "end-grace"; key: KeyRow } | null;
