pragma solidity ^0.8.0;

contract BadNFT {
    mapping(uint256 => address) internal owners;
    mapping(address => uint256) internal balances;

    function ownerOf(uint256 tokenId) public view returns (uint256) { // expect: erc721-interface
        return uint256(uint160(owners[tokenId]));
    }

    function balanceOf(address who) public view returns (uint256) {
        return balances[who];
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        require(owners[tokenId] == from && from == msg.sender);
        owners[tokenId] = to;
        balances[from] -= 1;
        balances[to] += 1;
    }
}

contract SilentApprovals {
    mapping(uint256 => address) internal owners;
    mapping(uint256 => address) internal approvals;

    function ownerOf(uint256 tokenId) public view returns (address) {
        return owners[tokenId];
    }

    function getApproved(uint256 tokenId) public view { // expect: erc721-interface
        approvals[tokenId];
    }

    function approve(address to, uint256 tokenId) public {
        require(owners[tokenId] == msg.sender);
        approvals[tokenId] = to;
    }
}

contract GoodNFT {
    mapping(uint256 => address) internal owners;
    mapping(address => uint256) internal balances;
    mapping(uint256 => address) internal approvals;

    function ownerOf(uint256 tokenId) public view returns (address) {
        return owners[tokenId];
    }

    function balanceOf(address who) public view returns (uint256) {
        return balances[who];
    }

    function getApproved(uint256 tokenId) public view returns (address) {
        return approvals[tokenId];
    }

    // The standard declares approve without a return value: an extra bool is ignored by callers.
    function approve(address to, uint256 tokenId) public returns (bool) {
        require(owners[tokenId] == msg.sender);
        approvals[tokenId] = to;
        return true;
    }
}

// Not a token: ownerOf alone, with no ERC721 surface.
contract Registry {
    mapping(uint256 => bytes32) internal names;

    function ownerOf(uint256 id) public view returns (bytes32) {
        return names[id];
    }
}

interface IOddNFT {
    function ownerOf(uint256 tokenId) external view returns (uint256);
    function transferFrom(address from, address to, uint256 tokenId) external;
}

contract DerivedNFT is BadNFT {
    function burn(uint256 tokenId) public {
        require(owners[tokenId] == msg.sender);
        owners[tokenId] = address(0);
    }
}
