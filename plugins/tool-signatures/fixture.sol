// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

// BAD and GOOD signature handling side by side; an expect comment lists the rules that must flag its line.
contract BadVoucher {
    address public signer;
    mapping(address => uint256) public nonces;

    function claim(uint256 amount, uint8 v, bytes32 r, bytes32 s) external {
        bytes32 h = keccak256(abi.encodePacked(msg.sender, amount));
        require(ecrecover(h, v, r, s) == signer); // expect: signature-replay, ecrecover-malleability, ecrecover-zero-address
        payable(msg.sender).transfer(amount);
    }

    function claimWithStaleNonce(uint256 amount, uint8 v, bytes32 r, bytes32 s) external {
        bytes32 h = keccak256(abi.encodePacked(msg.sender, amount, nonces[msg.sender], block.chainid, address(this)));
        address who = ecrecover(h, v, r, s); // expect: signature-replay, ecrecover-malleability
        require(who != address(0) && who == signer);
        payable(msg.sender).transfer(amount);
    }

    function transferFrom(address from, address to, uint256 amount, uint8 v, bytes32 r, bytes32 s) external {
        bytes32 h = keccak256(abi.encodePacked(from, to, amount, nonces[from]));
        nonces[from]++;
        address who = ecrecover(h, v, r, s); // expect: signature-replay, ecrecover-malleability, ecrecover-zero-address
        require(who == from);
    }

    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external { // expect: permit-deadline
        bytes32 h = keccak256(abi.encode(owner, spender, value, nonces[owner]++, deadline, block.chainid, address(this)));
        address who = ecrecover(h, v, r, s); // expect: ecrecover-malleability
        require(who != address(0) && who == owner);
    }
}

contract BadRelayer {
    address public signer;
    mapping(bytes32 => bool) public seen;

    function _recover(bytes32 h, bytes memory sig) internal pure returns (address) {
        (bytes32 r, bytes32 s, uint8 v) = abi.decode(sig, (bytes32, bytes32, uint8));
        return ecrecover(h, v, r, s); // expect: ecrecover-malleability
    }

    function relay(address to, uint256 amount, bytes calldata sig) external {
        bytes32 id = keccak256(abi.encodePacked(to, amount, sig));
        require(!seen[id]);
        seen[id] = true;
        require(_recover(keccak256(abi.encodePacked(to, amount)), sig) == signer); // expect: signature-replay
        payable(to).transfer(amount);
    }
}

contract BadBridge {
    mapping(bytes32 => bool) public done;

    function lzReceive(uint16 srcChainId, bytes calldata srcAddress, uint64 nonce, bytes calldata payload) external { // expect: bridge-message-verification
        (address to, uint256 amount) = abi.decode(payload, (address, uint256));
        payable(to).transfer(amount);
    }

    function receiveMessage(bytes32 messageId, bytes calldata payload) external { // expect: bridge-message-verification
        (address to, uint256 amount) = abi.decode(payload, (address, uint256));
        payable(to).transfer(amount);
    }
}

library ECDSA {
    function recover(bytes32 h, bytes memory sig) internal pure returns (address) {
        return address(uint160(uint256(h) ^ sig.length));
    }
}

contract GoodVoucher {
    using ECDSA for bytes32;
    address public signer;
    bytes32 public immutable DOMAIN;
    mapping(address => uint256) public nonces;
    mapping(bytes32 => bool) public used;

    constructor() {
        DOMAIN = keccak256(abi.encode(block.chainid, address(this)));
    }

    function claim(uint256 amount, bytes calldata sig) external {
        bytes32 h = keccak256(abi.encodePacked(DOMAIN, msg.sender, amount, nonces[msg.sender]++));
        require(h.recover(sig) == signer);
    }

    function redeem(uint256 amount, uint8 v, bytes32 r, bytes32 s, uint256 deadline) external {
        require(block.timestamp <= deadline);
        require(uint256(s) <= 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0);
        bytes32 h = keccak256(abi.encodePacked(DOMAIN, msg.sender, amount, deadline));
        require(!used[h]);
        used[h] = true;
        address who = ecrecover(h, v, r, s);
        require(who != address(0) && who == signer);
    }
}

contract GoodBridge {
    address public endpoint;
    mapping(uint16 => bytes) public trusted;
    mapping(bytes32 => bool) public processed;

    function lzReceive(uint16 srcChainId, bytes calldata srcAddress, uint64 nonce, bytes calldata payload) external {
        require(msg.sender == endpoint);
        require(keccak256(srcAddress) == keccak256(trusted[srcChainId]));
        (address to, uint256 amount) = abi.decode(payload, (address, uint256));
        payable(to).transfer(amount);
    }

    function receiveMessage(bytes32 messageId, bytes calldata payload) external {
        require(msg.sender == endpoint);
        require(!processed[messageId]);
        processed[messageId] = true;
        (address to, uint256 amount) = abi.decode(payload, (address, uint256));
        payable(to).transfer(amount);
    }
}
