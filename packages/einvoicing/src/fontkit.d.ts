// fontkit ships no types; the one function used here (pdfkit takes the parsed font as it is).
declare module 'fontkit' {
  export function create(
    buffer: Uint8Array,
    postscriptName?: string,
  ): { layout: (text: string) => unknown; postscriptName: string };
}
