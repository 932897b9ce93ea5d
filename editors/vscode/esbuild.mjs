// Bundles the extension and vscode-languageclient into dist/extension.js (VS Code gives `vscode`);
// with --tests, the tests into out/ too, for `node --test`.
import * as esbuild from "esbuild";

const node = { bundle: true, format: "cjs", platform: "node", target: "node18" };

await esbuild.build({
  ...node,
  entryPoints: ["src/extension.ts"],
  outfile: "dist/extension.js",
  external: ["vscode"],
  minify: true,
});
if (process.argv.includes("--tests")) {
  await esbuild.build({ ...node, entryPoints: ["test/server.test.ts"], outdir: "out" });
}
