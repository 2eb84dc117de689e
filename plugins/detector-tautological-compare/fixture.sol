pragma solidity ^0.8.0;

contract Ownable {
    address public owner = msg.sender;

    function transferOwnership(address newOwner) external {
        require(msg.sender == owner);
        require(newOwner != newOwner); // expect: tautological-compare
        owner = newOwner;
    }

    function move(address from, address to, uint256[] calldata xs) external view returns (bool) {
        if (from == from) { // expect: tautological-compare
            return xs.length >= xs.length; // expect: tautological-compare
        }
        return from != to && gasleft() == gasleft();
    }
}
