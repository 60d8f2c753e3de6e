// Size budgets (scripts/budgets.json): each figure printed next to its goal, and an error
// when a figure is over its enforced limit, so the build (not a test) fails over budget.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "./run.mjs";

/** The budgets, keyed by their printed name. */
export function budgets() {
  const all = JSON.parse(readFileSync(join(root, "scripts", "budgets.json"), "utf8"));
  delete all.$comment;
  return all;
}

/** Gzipped size (level 9) of `bytes`. */
export const gzipped = (bytes) => gzipSync(bytes, { level: 9 }).length;

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

/**
 * Prints `name: <size> gzipped (limit L, goal G: met|not yet met)` and returns an error
 * message when `size` is over the enforced limit (undefined otherwise).
 */
export function checkBudget(name, size, detail = "") {
  const budget = budgets()[name];
  if (!budget) throw new Error(`scripts/budgets.json has no budget named ${JSON.stringify(name)}`);
  const goal = size <= budget.goal ? `goal ${kb(budget.goal)}: met` : `goal ${kb(budget.goal)}: NOT YET MET`;
  const limit = budget.limit === budget.goal ? "" : `, enforced limit ${kb(budget.limit)}`;
  console.log(`${name}: ${kb(size)} gzipped${detail}${limit} (${goal})`);
  if (size > budget.limit) {
    return `${name} is ${kb(size)} gzipped, over its budget of ${kb(budget.limit)} (scripts/budgets.json)`;
  }
  return undefined;
}
