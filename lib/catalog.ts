import { NANOS_PER_DOLLAR as DOLLAR } from "./money";

/**
 * The endpoint catalog: the one list of data endpoints. The router,
 * /endpoints, /estimate, the OpenAPI document, the docs page, plan defaults
 * and the admin price editor all read it; nothing lists endpoints twice.
 */
export const ENDPOINT_NAMES = [
  "dilution-rating",
  "dilution-data",
  "registrations",
  "nasdaq-compliance",
  "float-outstanding",
  "offerings",
  "reverse-splits",
] as const;

export type EndpointName = (typeof ENDPOINT_NAMES)[number];

export interface EndpointDefinition {
  name: EndpointName;
  path: `/v1/${EndpointName}`;
  title: string;
  summary: string;
  /** Default price per GB in nano-dollars; an EndpointPrice row overrides it. */
  defaultPricePerGbNanos: bigint;
  /** Largest `limit` accepted. */
  maxLimit: number;
  /** Accepts date_from / date_to. */
  supportsDateRange: boolean;
  /** Reachable on the Trial plan by default. */
  inTrialPlan: boolean;
}

export const ENDPOINTS: Record<EndpointName, EndpointDefinition> = {
  "dilution-rating": {
    name: "dilution-rating",
    path: "/v1/dilution-rating",
    title: "Dilution rating",
    summary: "Composite dilution-risk rating for a ticker, with an explanation of every rating.",
    defaultPricePerGbNanos: 8n * DOLLAR,
    maxLimit: 100,
    supportsDateRange: false,
    inTrialPlan: true,
  },
  "dilution-data": {
    name: "dilution-data",
    path: "/v1/dilution-data",
    title: "Dilution data",
    summary: "Warrants, convertibles and equity lines, one row per instrument: shares underlying, prices, amounts, status and dates.",
    defaultPricePerGbNanos: 25n * DOLLAR,
    maxLimit: 100,
    supportsDateRange: false,
    inTrialPlan: false,
  },
  registrations: {
    name: "registrations",
    path: "/v1/registrations",
    title: "Registrations",
    summary: "Shelf registrations and at-the-market programs, with baby-shelf status and ATM capacity.",
    defaultPricePerGbNanos: 10n * DOLLAR,
    maxLimit: 100,
    supportsDateRange: true,
    inTrialPlan: true,
  },
  "nasdaq-compliance": {
    name: "nasdaq-compliance",
    path: "/v1/nasdaq-compliance",
    title: "Listing compliance",
    summary: "Exchange listing-compliance deficiencies, their risk level and status updates.",
    defaultPricePerGbNanos: 8n * DOLLAR,
    maxLimit: 100,
    supportsDateRange: true,
    inTrialPlan: true,
  },
  "float-outstanding": {
    name: "float-outstanding",
    path: "/v1/float-outstanding",
    title: "Float and outstanding",
    summary: "Float, shares outstanding, market cap and insider / institutional ownership.",
    defaultPricePerGbNanos: 8n * DOLLAR,
    maxLimit: 100,
    supportsDateRange: false,
    inTrialPlan: true,
  },
  offerings: {
    name: "offerings",
    path: "/v1/offerings",
    title: "Offerings",
    summary: "Completed offerings: public offerings, registered directs, PIPEs, ATM use and warrant exercises.",
    defaultPricePerGbNanos: 25n * DOLLAR,
    maxLimit: 100,
    supportsDateRange: true,
    inTrialPlan: true,
  },
  "reverse-splits": {
    name: "reverse-splits",
    path: "/v1/reverse-splits",
    title: "Reverse splits",
    summary: "Reverse stock splits: ratio and effective date, each from the filing that states it.",
    defaultPricePerGbNanos: 8n * DOLLAR,
    maxLimit: 100,
    supportsDateRange: true,
    inTrialPlan: true,
  },
};

export const ENDPOINT_LIST: readonly EndpointDefinition[] = ENDPOINT_NAMES.map((name) => ENDPOINTS[name]);

export function isEndpointName(value: string): value is EndpointName {
  return (ENDPOINT_NAMES as readonly string[]).includes(value);
}
