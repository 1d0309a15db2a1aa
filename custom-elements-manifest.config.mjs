// The one `cem analyze` run of the build: custom-elements.json from src/elements, and from it, by
// maintained plugins, React 19 JSX types (itch-oauth-widget/jsx), VS Code custom data, JetBrains
// web-types, and a validation of the manifest and package.json. Nothing here is written by hand.
import { cemValidatorPlugin } from '@wc-toolkit/cem-validator';
import { jsxTypesPlugin } from '@wc-toolkit/jsx-types';
import { modulePathResolverPlugin } from '@wc-toolkit/module-path-resolver';
import { customElementJetBrainsPlugin } from 'custom-element-jet-brains-integration';
import { customElementVsCodePlugin } from 'custom-element-vs-code-integration';

// In the built package the element classes come from the main entry, dist/index.js (Vite puts
// them in shared chunks), and are registered by dist/define.js.

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
