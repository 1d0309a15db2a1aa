// Types of find-browser.mjs, for playwright.config.ts and the tests.
export declare const MISSING_BROWSER: string;

export interface FindBrowserOptions {
  env?: Record<string, string | undefined>;
  platform?: string;
  exists?: (file: string) => boolean;
  playwrightExecutable?: () => string | undefined;
  home?: string;
}

export declare function systemBrowserPaths(platform?: string, env?: Record<string, string | undefined>, home?: string): string[];
export declare function findBrowser(options?: FindBrowserOptions): string | undefined;
export declare function requireBrowser(options?: FindBrowserOptions): string;
