/** The path of the tarball of dist/, as `npm publish` would upload it (build first: `npm run build`). */
export function pack(): string;
