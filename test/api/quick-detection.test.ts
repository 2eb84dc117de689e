// Quick mode over HTTP on the SWC-105 reproduction: a payable function that pays a fixed
// ether amount to any caller, in a contract that holds ether, is reported as an unprotected
// withdrawal; the same payout behind a once-per-caller claim is not.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { boot, type Booted } from './helpers.ts';

let b: Booted;
before(async () => {
  b = await boot();
});
after(async () => {
  await b.stop();
});

const DRAIN = `pragma solidity ^0.8.0;

contract Pot {
    receive() external payable {}

    function f() payable public {
        payable(msg.sender).transfer(1 ether);
    }
}
`;

const CLAIM = `pragma solidity ^0.8.0;

contract Pot {
    mapping(address => bool) public claimed;

    receive() external payable {}

    function claim() public {
        require(!claimed[msg.sender], "claimed");
        claimed[msg.sender] = true;
        payable(msg.sender).transfer(1 ether);
    }
}
`;

test('quick mode reports a fixed payout anyone can repeat (SWC-105), not a once-per-caller claim', async () => {
  const r = await b.kernel.api.inject({ method: 'POST', url: '/api/v1/analyze/quick/', payload: { contract_code: DRAIN, timeout: 60 } });
  assert.equal(r.statusCode, 200, r.body);
  const hit = r.json().findings.find((f: any) => f.swc_id === 'SWC-105' && f.location.line === 7);
  assert.ok(hit, JSON.stringify(r.json().findings.map((f: any) => [f.detector, f.swc_id, f.location.line])));
  assert.equal(hit.category, 'access_control');
  assert.ok(['HIGH', 'CRITICAL'].includes(hit.severity));
  const c = await b.kernel.api.inject({ method: 'POST', url: '/api/v1/analyze/quick/', payload: { contract_code: CLAIM, timeout: 60 } });
  assert.equal(c.statusCode, 200, c.body);
  assert.ok(
    !c.json().findings.some((f: any) => f.swc_id === 'SWC-105'),
    JSON.stringify(c.json().findings.map((f: any) => [f.detector, f.location.line])),
  );
});
