pragma solidity ^0.8.0;

contract Relayer {
    mapping(address => uint256) public fees;
    event Failed(address target);

    function relay(address target, bytes calldata data) external {
        (bool ok, ) = target.call(data); // expect: return-bomb
        if (!ok) emit Failed(target);
        fees[msg.sender] += 1;
    }

    function relayLimited(address target, bytes calldata data) external {
        (bool ok, ) = target.call{gas: 100000}(data);
        if (!ok) emit Failed(target);
        fees[msg.sender] += 1;
    }

    function relayStrict(address target, bytes calldata data) external {
        (bool ok, ) = target.call(data);
        require(ok, "failed");
        fees[msg.sender] += 1;
    }
}
