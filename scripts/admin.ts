/**
 * The operator CLI's process: `scripts/admin [--json] <command> [args]` (a bash entry point that works from any
 * directory) and `npm run admin -- ...` both run this file. The commands live in scripts/admin-cli/ (`runAdmin`,
 * which tests call directly); tests import them from there, since `scripts/admin` is the bash script.
 */
import { runAdmin } from './admin-cli';

void runAdmin(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((code) => {
  process.exitCode = code;
});
