// svelte-check's compiler options (defaults); also stops it from reading the repository's vite.config.ts.
export default {};
