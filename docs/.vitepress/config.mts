// The docs site (`npm run docs:dev`, `npm run docs:build`): VitePress over docs/ as it is, the
// same Markdown GitHub shows. VitePress is installed in scripts/docs-tools/, never in the
// package's own dependencies, so the published package carries none of it.
// (No import of 'vitepress' here: it is not resolvable from docs/, and the config is plain data.)

const guides = [
  ['A static site (script tag)', 'static-site'],
  ['A single-page app (Vite)', 'spa-vite'],
  ['Frameworks (typed)', 'frameworks'],
  ['Log in from a web game', 'web-game-popup'],
  ['Desktop games and tools', 'desktop'],
  ['Your server framework', 'server-frameworks'],
  ['Cloudflare Workers', 'cloudflare-workers'],
  ['Sessions', 'sessions'],
  ['Owners only', 'owners-only'],
  ['The emulator', 'emulator'],
  ['Styling', 'styling'],
  ['Deploy', 'deploy'],
];
const concepts = [
  ['How it works', 'how-it-works'],
  ['The popup relay', 'popup-relay'],
  ['Security', 'security'],
  ['Browser support', 'browser-support'],
  ['Glossary', 'glossary'],
];

export default {
  title: 'itch-oauth-widget',
  description: 'Log in with itch.io for game websites, SPAs, framed web games and desktop tools.',
  // docs/README.md is the home page, as on GitHub.
  rewrites: { 'README.md': 'index.md' },
  // Links out of docs/ (the README, examples/, src/) lead to the repository, not to pages here.
  ignoreDeadLinks: [/(^|\/)\.\.\/(\.\.\/)?(README|CONTRIBUTING|CHANGELOG|examples|demo|test|src|bench)\b/],
  themeConfig: {
    sidebar: [
      { text: 'Guides', items: guides.map(([text, page]) => ({ text, link: `/guides/${page}` })) },
      { text: 'Concepts', items: concepts.map(([text, page]) => ({ text, link: `/concepts/${page}` })) },
      {
        text: 'Reference',
        items: [
          { text: 'Elements', link: '/reference/elements' },
          { text: 'API', link: '/reference/api/' },
          { text: 'Error codes', link: '/reference/errors' },
        ],
      },
    ],
    search: { provider: 'local' },
  },
};
