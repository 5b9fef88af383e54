/** Type declarations for formats.js (plain ESM so the generated validators load without TS tooling). */
export type FormatCheck = (s: string) => boolean;
export declare function date(s: string): boolean;
export declare function time(s: string): boolean;
export declare function dateTime(s: string): boolean;
/** The regex form of dateTime, kept as the specification the fast version is tested against. */
export declare function dateTimeReference(s: string): boolean;
export declare function duration(s: string): boolean;
export declare function uuid(s: string): boolean;
export declare function uri(s: string): boolean;
export declare function uriReference(s: string): boolean;
export declare function email(s: string): boolean;
export declare function hostname(s: string): boolean;
export declare function ipv4(s: string): boolean;
export declare function ipv6(s: string): boolean;
export declare function regex(s: string): boolean;
export declare function jsonPointer(s: string): boolean;
export declare function relativeJsonPointer(s: string): boolean;
/** Checkers by JSON Schema format name; its keys are the formats toolc supports. */
export declare const formats: Readonly<Record<string, FormatCheck>>;
