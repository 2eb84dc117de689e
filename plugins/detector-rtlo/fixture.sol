pragma solidity ^0.8.0;

contract Payout {
    address public owner;

    function pay(address a, address b, uint256 amount) external {
        payable(b).transfer(amount); /* ‮ a ot */ // expect: rtlo
    }

    function fine(address a) external {
        payable(a).transfer(1);
    }
}
