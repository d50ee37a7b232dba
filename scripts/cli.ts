import { runCli } from "@/lib/cli";
import { finish, runWhereTheDatabaseIs } from "@/lib/cli/remote";

/**
 * `npm run cli -- <command>`. When the dev server holds the embedded database,
 * the command is handed to it (it runs the same code) instead of failing.
 */
const args = process.argv.slice(2);
finish(runWhereTheDatabaseIs("/api/internal/cli", { args }, (database) => runCli(args, database.prisma)));
