import { defineConfig } from "prisma/config";

// The CLI is used only for `prisma generate` (see scripts/prisma-generate.mjs);
// migrations are applied by scripts/migrate.ts, so no datasource URL is needed here.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
