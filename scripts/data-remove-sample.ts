import { runEdgarCommand } from "@/lib/cli/edgar";
import { finish, runWhereTheDatabaseIs } from "@/lib/cli/remote";

/**
 * `npm run data:remove-sample`: drops the sample dataset (every company
 * labelled sample, with its records) from the database the app uses, in one
 * transaction, recorded on the console's Data page. Real data is untouched,
 * and the embedded database does not seed the sample again.
 */
const args = ["remove-sample"];
finish(runWhereTheDatabaseIs("/api/internal/edgar", { args, env: {} }, (database) => runEdgarCommand(database.prisma, args, {})));
