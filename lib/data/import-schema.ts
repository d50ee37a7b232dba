export * from "./import/schema"; // the old path, for lib/data/edgar/map.ts and sync.ts until they import ./import/schema
