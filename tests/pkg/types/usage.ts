// Type-checked (tsc --noEmit), never run: the public .d.ts gives precise shapes (convention 13).
import init, { FencedResource, type FenceResult, type FencingToken, type TenureErrorCode } from "tenure";

await init();
const resource = new FencedResource();
const token: FencingToken = resource.highestToken;
const result: FenceResult = resource.write(token + 1n, { any: "value" });

if (result.accepted) {
  const accepted: bigint = result.token;
  void accepted;
} else {
  const reason: "stale fencing token" = result.reason;
  const gap: bigint = result.required - result.presented;
  void reason;
  void gap;
}

const value: unknown = resource.value;
void value;
const code: TenureErrorCode = "ERR_TOKEN_RANGE";
void code;

// @ts-expect-error tokens are bigints, not numbers
resource.write(5, "x");
// @ts-expect-error the rejection has no token field
resource.check(1n).accepted === false && resource.check(1n).token;
