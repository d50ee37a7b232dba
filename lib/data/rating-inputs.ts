export { loadRatingInputs } from "./records/rating-inputs"; // the old path, for lib/data/edgar/sync.ts until it imports ./records/rating-inputs
