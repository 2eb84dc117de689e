pragma solidity ^0.4.24;

contract Auction {
    uint256 public deadline;
    uint256 public nowTime;

    struct Bid {
        uint256 block;
        address bidder;
    }

    function bid(uint256 now) public { // expect: builtin-shadowing
        require(now < deadline);
        nowTime = now;
    }

    function sha3(bytes data) public pure returns (bytes32) { // expect: builtin-shadowing
        return keccak256(data);
    }

    function close(uint256 _block) public {
        deadline = _block;
    }
}
