// Types of build-server.mjs for the TypeScript that imports it.
export declare const SERVER_DIR: string;
export declare const SERVER_BUNDLE: string;
export declare const COMMANDS: string[];
export declare function builtFile(name: string): string;
export declare const SERVER_ARGS: string[];
export declare function newestMtime(p: string): number;
export declare function serverBuildStale(): boolean;
export declare function buildServer(options?: { force?: boolean }): Promise<boolean>;
