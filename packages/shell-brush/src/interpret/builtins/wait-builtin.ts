/** `wait [id…]`: the status of the background jobs named by `$!`, or of all of them. */
import type { Builtin } from "./builtin-context.js";

export const wait: Builtin = async (context, args) => {
  const jobs = context.interpreter.jobs;
  const ids = args.filter((arg) => !arg.startsWith("-"));
  if (ids.length === 0) return jobs.wait();
  let status = 0;
  for (const id of ids) {
    if (!/^[0-9]+$/.test(id)) {
      context.error(`wait: \`${id}': not a pid or valid job spec`);
      status = 2;
      continue;
    }
    status = await jobs.wait(id);
    if (status === 127) context.error(`wait: pid ${id} is not a child of this shell`);
  }
  return status;
};
