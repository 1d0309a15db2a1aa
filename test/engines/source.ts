/**
 * `fn(...args)` as one self-contained expression for a page: `fn`'s source (as tsx compiled it)
 * and the arguments as JSON. tsx wraps named inner functions in its `__name` helper, which the page
 * does not have: the expression brings a stand-in.
 */
export function callExpression(fn: (...args: never[]) => unknown, args: unknown[]): string {
  return `(function () { var __name = function (f) { return f; }; return (${fn.toString()}).apply(null, ${JSON.stringify(args)}); })()`;
}
