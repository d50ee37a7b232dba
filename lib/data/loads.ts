export { recordDataLoad, type LoadActor } from "./import/loads"; // the old path, for lib/data/edgar/sync.ts until it imports ./import/loads
