// The one `cem analyze` run of the build: custom-elements.json from src/elements, and from it, by
// maintained plugins, React 19 JSX types (itch-oauth-widget/jsx), VS Code custom data, JetBrains
// web-types, and a validation of the manifest and package.json. Nothing here is written by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { cemValidatorPlugin } from '@wc-toolkit/cem-validator';
import { jsxTypesPlugin } from '@wc-toolkit/jsx-types';
import { modulePathResolverPlugin } from '@wc-toolkit/module-path-resolver';
import { customElementJetBrainsPlugin } from 'custom-element-jet-brains-integration';
import { customElementVsCodePlugin } from 'custom-element-vs-code-integration';

// In the built package the element classes come from the main entry, dist/index.js (Vite puts
// them in shared chunks), and are registered by dist/define.js.

/** What each type of dist/jsx.d.ts that the generator leaves undescribed is, in one line. */
const JSX_PURPOSES = {
  ItchLoginButtonProps: '`<itch-login-button>` in JSX (React, Preact, Qwik, Stencil, Hono): its attributes and event handlers.',
  ItchLoginButtonSolidJsProps: "`<itch-login-button>` in Solid's JSX: its attributes, properties and event handlers.",
  ItchOAuthCallbackProps: '`<itch-oauth-callback>` in JSX (React, Preact, Qwik, Stencil, Hono): its attributes and event handlers.',
  ItchOAuthCallbackSolidJsProps: "`<itch-oauth-callback>` in Solid's JSX: its attributes, properties and event handlers.",
  CustomElements: 'Both tags with their props, which the JSX `IntrinsicElements` of each framework extend.',
  CustomElementsSolidJs: "Both tags with their props, which Solid's JSX `IntrinsicElements` extend.",
  CustomCssProperties: "The elements' CSS custom properties (`--itch-login-…`), for a typed `style` object.",
};

export default {
  globs: ['src/elements/*.ts'],
  // The elements' styles, their helpers (the button's login, the callback's views) and events.
  exclude: ['src/elements/*.styles.ts', 'src/elements/*.flow.ts', 'src/elements/*.view.ts', 'src/elements/events.ts'],
  outdir: '.',
  plugins: [
    {
      // The elements extend Lit's LitElement, which they import through src/ui/lit.ts (see there):
      // the manifest names the package it comes from, not that internal module.
      name: 'lit-superclass',
      packageLinkPhase({ customElementsManifest }) {
        for (const declaration of customElementsManifest.modules.flatMap((module) => module.declarations ?? [])) {
          if (declaration.superclass?.module === '/src/ui/lit.js')
            declaration.superclass = { name: declaration.superclass.name, package: 'lit' };
        }
      },
    },
    modulePathResolverPlugin({
      modulePathTemplate: () => 'dist/index.js',
      definitionPathTemplate: () => 'dist/define.js',
    }),
    jsxTypesPlugin({
      outdir: 'dist',
      fileName: 'jsx.d.ts',
      // The element classes and the event detail types, from the package's main entry.
      globalTypePath: './index.js',
      stronglyTypedEvents: true,
      hideLogs: true,
    }),
    {
      // The JSX types' own declarations each get a line saying what they are (the generator writes
      // none), and its helper types stay inside the file: a declaration file without an export
      // statement exports every top-level type.
      name: 'jsx-types-purposes',
      packageLinkPhase() {
        const file = 'dist/jsx.d.ts';
        let text = readFileSync(file, 'utf8');
        for (const [name, purpose] of Object.entries(JSX_PURPOSES)) {
          const declaration = `\nexport type ${name} =`;
          if (!text.includes(declaration)) throw new Error(`${file}: no declaration of ${name} to describe`);
          text = text.replace(declaration, `\n/** ${purpose} */${declaration}`);
        }
        if (!/^export \{\};$/m.test(text)) text += '\nexport {};\n';
        writeFileSync(file, text);
      },
    },
    customElementVsCodePlugin({
      outdir: 'dist',
      htmlFileName: 'vscode.html-custom-data.json',
      cssFileName: 'vscode.css-custom-data.json',
      hideMethodDocs: true, // navigate()/replace() are test seams, not API
      hideLogs: true,
    }),
    customElementJetBrainsPlugin({
      outdir: 'dist',
      webTypesFileName: 'web-types.json',
      hideMethodDocs: true,
      hideLogs: true,
    }),
    cemValidatorPlugin({
      rules: {
        manifest: {
          // The analyzer (0.11, the latest) writes schema 1.0.0.
          schemaVersion: 'off',
          // The event detail types are exported by dist/index.js, where dist/jsx.d.ts imports them
          // from; this rule looks for them among the exports of each element's source file only.
          exportTypes: 'off',
        },
      },
    }),
  ],
};
