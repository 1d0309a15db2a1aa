/**
 * The environment a user's shell gives a command the tests run as the user would (`vite build`,
 * an example's `npm start`): this process's, without what a test process sets for itself.
 * `NODE_ENV` goes first: Vite's dev server, started in this process by an earlier spec, sets it to
 * `development`, and a `vite build` that inherits it makes a development build (Lit's dev mode,
 * React's dev warnings), which no user gets from `vite build`.
 * @see https://vite.dev/guide/env-and-mode#node-env-and-modes
 */
export function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_ENV: _node, PUBLIC_ORIGIN: _origin, SESSION_SECRET: _secret, ...environment } = process.env;
  return { ...environment, ...extra };
}
