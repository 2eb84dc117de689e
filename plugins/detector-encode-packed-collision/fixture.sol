pragma solidity ^0.8.0;

contract Registry {
    mapping(bytes32 => address) public owners;
    string public prefix;

    function claim(string calldata name, string calldata tld) external {
        bytes32 id = keccak256(abi.encodePacked(name, tld)); // expect: encode-packed-collision
        require(owners[id] == address(0));
        owners[id] = msg.sender;
    }

    function allow(address[] calldata a, address[] calldata b) external pure returns (bytes32) {
        return keccak256(abi.encodePacked(a, b)); // expect: encode-packed-collision
    }

    function claimSafe(string calldata name, string calldata tld) external {
        bytes32 id = keccak256(abi.encode(name, tld));
        owners[id] = msg.sender;
    }

    function one(string calldata name, uint256 n) external pure returns (bytes32) {
        return keccak256(abi.encodePacked(name, n, "x"));
    }
}

contract Signed {
    function ethMessage(string memory message, string memory len) public pure returns (bytes32) {
        string memory prefix = "\x19Ethereum Signed Message:\n";
        return keccak256(abi.encodePacked(prefix, len, message)); // expect: encode-packed-collision
    }

    function ethMessageFixed(string memory message) public pure returns (bytes32) {
        string memory prefix = "\x19Ethereum Signed Message:\n32";
        return keccak256(abi.encodePacked(prefix, message));
    }
}
